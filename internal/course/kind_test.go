package course

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryKindHasTraits: a kind added to Kinds without its traits would
// offer nothing, silently; one in traits but not in Kinds could never be
// loaded.
func TestEveryKindHasTraits(t *testing.T) {
	for _, k := range Kinds {
		tr, ok := traits[k]
		if !ok {
			t.Errorf("kind %q has no traits", k)
		}
		if !tr.Editor && !tr.Answers {
			t.Errorf("kind %q gives the learner no way to answer (neither Editor nor Answers)", k)
		}
	}
	if len(traits) != len(Kinds) {
		t.Errorf("%d kinds have traits, %d are in Kinds", len(traits), len(Kinds))
	}
}

// TestSchemaNamesEveryKind: an author's editor offers the kinds the
// exercise schema lists, and the loader accepts those in Kinds; a kind
// added to one and not the other is refused by the loader or offered by
// no editor.
func TestSchemaNamesEveryKind(t *testing.T) {
	var s struct {
		Properties struct {
			Kind struct {
				Enum []Kind `json:"enum"`
			} `json:"kind"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(Schemas()["exercise.schema.json"], &s))
	assert.Equal(t, Kinds, s.Properties.Kind.Enum, "the kinds of schema/exercise.schema.json")
}

// TestUnknownKindNamesTheKinds: an exercise of no known kind is refused
// with the kinds there are, listed from Kinds.
func TestUnknownKindNamesTheKinds(t *testing.T) {
	assert.Equal(t, `"trace" and "quiz"`, kindNames(Kinds))
	assert.Equal(t, `"trace", "quiz" and "code"`, kindNames(append(slices.Clone(Kinds), "code")))
}

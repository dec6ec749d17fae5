package course

import "testing"

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

package kurs_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/course"
)

// TestSignaturesUpToDate: every exercise with misconceptions has recorded
// their signatures for its current content, one per misconception, so a
// check can name them. kurs validate --signatures --course . records them.
func TestSignaturesUpToDate(t *testing.T) {
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	for _, ex := range c.Exercises {
		list, err := ex.Misconceptions()
		require.NoError(t, err, ex.ID)
		if len(list) == 0 {
			continue
		}
		rec, err := ex.RecordedSignatures()
		require.NoError(t, err)
		require.NotNil(t, rec, "%s: no misconceptions/signatures.json; run kurs validate --signatures --course .", ex.ID)
		hash, err := ex.BehaviourHash()
		require.NoError(t, err)
		assert.Equal(t, hash, rec.Hash, "%s: signatures.json is stale; run kurs validate --signatures --course .", ex.ID)
		var ids []string
		for _, m := range list {
			ids = append(ids, m.ID)
			assert.NotNil(t, m.Signature, "%s/%s has no signature", ex.ID, m.ID)
		}
		var recorded []string
		for id := range rec.Misconceptions {
			recorded = append(recorded, id)
		}
		slices.Sort(recorded)
		assert.Equal(t, ids, recorded, "%s: signatures.json names other misconceptions", ex.ID)
	}
}

// TestEveryCodeExerciseHasMisconceptions: each exercise with code holds at
// least three misconceptions, each titled and explained in both languages
// and naming the hidden tests that catch it.
func TestEveryCodeExerciseHasMisconceptions(t *testing.T) {
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	for _, ex := range c.Exercises {
		if ex.Kind() == course.KindQuiz {
			continue
		}
		list, err := ex.Misconceptions()
		require.NoError(t, err, ex.ID)
		assert.GreaterOrEqual(t, len(list), 3, ex.ID)
		for _, m := range list {
			for _, lang := range course.Languages {
				assert.NotEmpty(t, m.Title[lang], "%s/%s: title in %s", ex.ID, m.ID, lang)
				assert.NotEmpty(t, m.Explanation[lang], "%s/%s: explanation in %s", ex.ID, m.ID, lang)
			}
			assert.NotEmpty(t, m.CaughtBy, "%s/%s: caught_by", ex.ID, m.ID)
		}
	}
}

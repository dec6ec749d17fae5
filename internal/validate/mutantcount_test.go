package validate

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMutantCountsAgree runs --mutants on kurs new course's course, a code
// exercise and a quiz: what the author reads while waiting (the start line
// and a line per exercise) counts the same exercises and mutants as the
// summary at the end, and the quiz, which has no reference solution of its
// own, has no mutants and no line of progress.
func TestMutantCountsAgree(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var start *Progress
	done := map[string]Progress{}
	r := run(t, newCourse(t), Options{Mutants: true, Progress: func(p Progress) {
		if p.Phase != PhaseMutants {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if p.Exercise == "" {
			start = &p
			return
		}
		done[p.Exercise] = p
	}})

	sums := map[string]MutantSummary{}
	for _, s := range r.Mutants {
		sums[s.Exercise] = s
	}
	require.Contains(t, sums, "counterquiz")
	assert.Equal(t, "quiz", sums["counterquiz"].Skipped, "a quiz has no mutants")
	assert.Zero(t, sums["counterquiz"].Invalid, "nor changes that do not compile")
	assert.NotContains(t, done, "counterquiz", "nor a line of progress")

	require.NotNil(t, start)
	assert.Len(t, done, start.Total, "the start line counts the exercises that report")
	mutants := 0
	for id, p := range done {
		assert.Equal(t, sums[id].Mutants, p.Mutants, "%s: progress and summary count its mutants alike", id)
		assert.Equal(t, sums[id].Invalid, p.Invalid, "%s: and its changes that do not compile", id)
		assert.Equal(t, p.Total, start.Total, id)
		mutants += p.Mutants
	}
	killed, counted := r.MutantTotals()
	assert.Positive(t, counted)
	assert.Equal(t, mutants, counted, "no mutant is marked equivalent: the summary counts every one that ran")
	assert.Equal(t, sums["counter"].Killed, killed)
}

package checker_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
)

// CheckAll, one build for many exercises, gives every corpus case the
// verdict its want.json names, as Check does: round k puts the k-th case
// of every exercise into one submission, so right, wrong, refused and
// non-compiling exercises share a build.
func TestCheckAllAgreesWithTheCorpus(t *testing.T) {
	c := loadCourse(t)
	warm(t, c)
	entries, err := os.ReadDir(corpusDir)
	require.NoError(t, err)
	type kase struct {
		name, dir string
		want      checker.Status
	}
	byExercise := map[string][]kase{}
	for _, e := range entries {
		if !e.IsDir() || slow(e.Name()) {
			continue
		}
		w := readWant(t, filepath.Join(corpusDir, e.Name()))
		for id, s := range w.Exercises {
			byExercise[id] = append(byExercise[id], kase{e.Name(), filepath.Join(corpusDir, e.Name(), id), s})
		}
	}
	rounds := 0
	for _, ks := range byExercise {
		rounds = max(rounds, len(ks))
	}
	for k := range rounds {
		var exs []*course.Exercise
		var jobs []checker.Job
		var cases []kase
		for _, id := range sortedKeys(byExercise) {
			if ks := byExercise[id]; k < len(ks) {
				ex, ok := c.Exercise(id)
				require.True(t, ok, id)
				exs, jobs, cases = append(exs, ex), append(jobs, checker.Job{Exercise: ex, Dir: ks[k].dir}), append(cases, ks[k])
			}
		}
		t.Run(strings.Repeat("r", 1)+string(rune('a'+k)), func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			// The rounds run side by side, each with up to twelve
			// programs and judges, and a stress test wants the processor
			// for a while: more time than one check alone needs.
			results, err := (&checker.Checker{Build: testBuild, Timeout: 3 * corpusTimeout, TempDir: tmp}).CheckAll(context.Background(), jobs)
			require.NoError(t, err)
			require.Len(t, results, len(exs))
			for i, res := range results {
				assert.Equal(t, exs[i].ID, res.Exercise)
				assert.Equal(t, cases[i].want, res.Status, "%s/%s: %s %+v", cases[i].name, exs[i].ID, describe(res), res.Problem)
			}
			left, err := os.ReadDir(tmp)
			require.NoError(t, err)
			assert.Empty(t, left, "the check left files in its temporary directory")
		})
	}
}

// slow are corpus cases that spend their time limit on purpose: they
// measure the limit, which TestCorpus covers, not a shared build.
func slow(name string) bool {
	return slices.ContainsFunc([]string{"busy", "wait-for-token", "memory-bomb", "stack-overflow", "hang", "spin", "sleep", "deadlock", "blocks"},
		func(s string) bool { return strings.Contains(name, s) })
}

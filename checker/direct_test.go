package checker

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
)

func firstLesson(t *testing.T) []*course.Exercise {
	t.Helper()
	c, err := course.Load(os.DirFS(".."))
	require.NoError(t, err)
	var exs []*course.Exercise
	for _, id := range []string{"circuitbreaker", "tokenbucket", "bulkheadquiz"} {
		ex, ok := c.Exercise(id)
		require.True(t, ok, id)
		exs = append(exs, ex)
	}
	return exs
}

// The direct build and the go command give the same results on corpus
// cases that pass, fail, do not compile and break the API, in one build.
// The rounds are independent and run in parallel, sharing one Builder as
// a front end's checks do.
func TestDirectBuildAgreesWithGoBuild(t *testing.T) {
	exs := firstLesson(t)
	b, err := build.New(build.Options{TempDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	rounds := [][]string{
		{"all-pass", "all-pass", "all-pass"},
		{"cb-error-syntax", "tb-fail-no-cap", "quiz-fail-swapped"},
		{"cb-error-wrong-signature", "tb-error-wrong-package", "quiz-pass-init"},
		{"cb-error-missing-method", "tb-fail-gt-one", "quiz-fail-one-wrong"},
	}
	for _, round := range rounds {
		t.Run(round[0], func(t *testing.T) {
			t.Parallel()
			var jobs []Job
			for i, name := range round {
				dir := filepath.Join("testdata", "submissions", name, exs[i].ID)
				_, err := os.Stat(dir)
				require.NoError(t, err)
				jobs = append(jobs, Job{Exercise: exs[i], Dir: dir})
			}
			direct, err := (&Checker{Build: b, TempDir: t.TempDir()}).CheckAll(context.Background(), jobs)
			require.NoError(t, err)
			viaGo, err := (&Checker{Build: b, TempDir: t.TempDir(), noDirect: true}).CheckAll(context.Background(), jobs)
			require.NoError(t, err)
			for i := range exs {
				a, b := direct[i], viaGo[i]
				assert.Equal(t, b.Status, a.Status, "%s/%s", round[i], exs[i].ID)
				assert.Equal(t, b.Score, a.Score, "%s/%s", round[i], exs[i].ID)
				assert.Equal(t, b.Problem, a.Problem, "%s/%s", round[i], exs[i].ID)
				assert.True(t, slices.EqualFunc(a.Tests, b.Tests, func(x, y Test) bool { return x.Name == y.Name && x.Status == y.Status }),
					"%s/%s: the tests' results differ", round[i], exs[i].ID)
			}
		})
	}
}

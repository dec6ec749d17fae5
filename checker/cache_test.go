package checker_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/build"
)

// A cache copied to another folder, with the original removed (a CI cache
// restored elsewhere), keeps every verdict: a correct solution still
// passes, the skeleton still fails, with the kit and judge it holds.
func TestMovedCacheKeepsVerdicts(t *testing.T) {
	// No warm-up of the references: the checks here use a cache of
	// their own, and only its go build cache is the shared one.
	c := loadCourse(t)
	ex, ok := c.Exercise("circuitbreaker")
	require.True(t, ok)
	ref, err := ex.Solution()
	require.NoError(t, err)
	skel, err := ex.Skeleton("en")
	require.NoError(t, err)
	good, bad := courseFiles(t, ref), courseFiles(t, skel)

	// A cache of the test's own; the go build cache is the shared one,
	// so that nothing of the standard library is compiled again.
	shared, _ := build.DefaultDir()
	first := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, os.Mkdir(first, 0o700))
	linkShared(t, first, "go-build")
	verdicts := func(dir string) [2]*checker.Result {
		b, err := build.New(build.Options{Dir: dir, TempDir: t.TempDir()})
		require.NoError(t, err)
		defer b.Close()
		ck := &checker.Checker{Build: b, Timeout: corpusTimeout}
		return [2]*checker.Result{check(t, ck, ex, good), check(t, ck, ex, bad)}
	}
	before := verdicts(first)
	require.Equal(t, checker.Pass, before[0].Status, describe(before[0]))
	require.Equal(t, checker.Fail, before[1].Status, describe(before[1]))

	moved := filepath.Join(t.TempDir(), "moved")
	require.NoError(t, os.Mkdir(moved, 0o700))
	for _, sub := range []string{"kits", "judges"} {
		require.NoError(t, os.CopyFS(filepath.Join(moved, sub), os.DirFS(filepath.Join(first, sub))))
	}
	require.NoError(t, os.Symlink(filepath.Join(shared, "go-build"), filepath.Join(moved, "go-build")))
	require.NoError(t, os.RemoveAll(first))
	kits, err := os.ReadDir(filepath.Join(moved, "kits"))
	require.NoError(t, err)

	after := verdicts(moved)
	for i := range before {
		assert.Equal(t, before[i].Status, after[i].Status, describe(after[i]))
		assert.Equal(t, before[i].Score, after[i].Score)
		assert.Equal(t, before[i].Problem, after[i].Problem)
		assert.Equal(t, before[i].Tests, after[i].Tests)
	}
	again, err := os.ReadDir(filepath.Join(moved, "kits"))
	require.NoError(t, err)
	assert.Equal(t, len(kits), len(again), "the moved kit serves; none is made anew")
	_, err = os.Stat(first)
	assert.True(t, os.IsNotExist(err), "nothing is written where the cache was")
}

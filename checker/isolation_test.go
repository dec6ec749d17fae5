package checker_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
)

// withReference returns a folder holding ex's reference solution and the
// files of testdata/isolation/CASE/ID (an init of its own, or a file that
// replaces the reference's): the learner's code of the isolation tests,
// without a copy of the reference to keep in step with it.
func withReference(t *testing.T, ex *course.Exercise, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), ex.ID)
	require.NoError(t, os.Mkdir(out, 0o755))
	files, err := ex.Solution()
	require.NoError(t, err)
	for _, f := range files {
		require.NoError(t, os.WriteFile(filepath.Join(out, f.Name), f.Data, 0o644))
	}
	entries, err := os.ReadDir(dir)
	if !os.IsNotExist(err) {
		require.NoError(t, err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(out, e.Name()), data, 0o644))
	}
	return out
}

// A gateway whose init starts a goroutine that panics a moment later
// leaves the circuit breaker checked beside it alone: on every seed the
// reference breaker gets every point, as it does when checked by itself.
func TestInitTouchesNoOtherExercise(t *testing.T) {
	cb, gw := exercise(t, "circuitbreaker"), exercise(t, "gateway")
	b := privateBuilder(t)
	dir := filepath.Join("testdata", "isolation", "panicking-init")
	jobs := []checker.Job{
		{Exercise: cb, Dir: withReference(t, cb, filepath.Join(dir, "circuitbreaker"))},
		{Exercise: gw, Dir: withReference(t, gw, filepath.Join(dir, "gateway"))},
	}
	for _, seed := range []uint64{1, 2, 3} {
		ck := &checker.Checker{Build: b, Timeout: corpusTimeout, Seed: seed}
		results, err := ck.CheckAll(t.Context(), jobs)
		require.NoError(t, err)
		res := results[0]
		assert.Equal(t, checker.Pass, res.Status, "seed %d: %s", seed, describe(res))
		assert.Equal(t, 4, res.Score, "seed %d", seed)
		assert.NotEqual(t, checker.Pass, results[1].Status, "seed %d: the gateway's own program panics", seed)
	}
}

// A breaker that is right only where errors.ErrUnsupported is nil fails
// beside a gateway whose init sets it to nil, and a check after the
// gateway's file is gone, with the same seed, gives no pass kept from a
// program that held the gateway.
func TestNoResultOfAnotherExercisesCode(t *testing.T) {
	cb, gw := exercise(t, "circuitbreaker"), exercise(t, "gateway")
	dir := filepath.Join("testdata", "isolation", "unsupported")
	cbDir, gwDir := withReference(t, cb, filepath.Join(dir, "circuitbreaker")), withReference(t, gw, filepath.Join(dir, "gateway"))
	ck := &checker.Checker{Build: privateBuilder(t), Timeout: corpusTimeout, Reuse: true}
	jobs := []checker.Job{{Exercise: cb, Dir: cbDir}, {Exercise: gw, Dir: gwDir}}
	results, err := ck.CheckAll(t.Context(), jobs)
	require.NoError(t, err)
	assert.Equal(t, checker.Fail, results[0].Status, "beside the gateway: %s", describe(results[0]))
	assert.Equal(t, checker.Pass, results[1].Status, "the gateway: %s", describe(results[1]))

	require.NoError(t, os.RemoveAll(gwDir))
	require.NoError(t, os.Mkdir(gwDir, 0o755))
	res := check(t, ck, cb, cbDir)
	assert.Equal(t, checker.Fail, res.Status, "alone: %s", describe(res))
	results, err = ck.CheckAll(t.Context(), jobs)
	require.NoError(t, err)
	assert.Equal(t, checker.Fail, results[0].Status, "beside no gateway: %s", describe(results[0]))
}

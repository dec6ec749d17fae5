package checker_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
)

// A gateway whose init starts a goroutine that panics a moment later
// leaves the circuit breaker checked beside it alone: on every seed the
// reference breaker gets every point, as it does when checked by itself.
func TestInitTouchesNoOtherExercise(t *testing.T) {
	cb, gw := exercise(t, "circuitbreaker"), exercise(t, "gateway")
	b := privateBuilder(t)
	dir := filepath.Join("testdata", "isolation", "panicking-init")
	jobs := []checker.Job{{Exercise: cb, Dir: filepath.Join(dir, "circuitbreaker")}, {Exercise: gw, Dir: filepath.Join(dir, "gateway")}}
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
	ws := t.TempDir()
	for _, id := range []string{"circuitbreaker", "gateway"} {
		data, err := os.ReadFile(filepath.Join("testdata", "isolation", "unsupported", id, id+".go"))
		require.NoError(t, err)
		require.NoError(t, os.Mkdir(filepath.Join(ws, id), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(ws, id, id+".go"), data, 0o644))
	}
	ck := &checker.Checker{Build: privateBuilder(t), Timeout: corpusTimeout, Reuse: true}
	jobs := []checker.Job{{Exercise: cb, Dir: filepath.Join(ws, "circuitbreaker")}, {Exercise: gw, Dir: filepath.Join(ws, "gateway")}}
	results, err := ck.CheckAll(t.Context(), jobs)
	require.NoError(t, err)
	assert.Equal(t, checker.Fail, results[0].Status, "beside the gateway: %s", describe(results[0]))
	assert.Equal(t, checker.Pass, results[1].Status, "the gateway: %s", describe(results[1]))

	require.NoError(t, os.Remove(filepath.Join(ws, "gateway", "gateway.go")))
	res := check(t, ck, cb, filepath.Join(ws, "circuitbreaker"))
	assert.Equal(t, checker.Fail, res.Status, "alone: %s", describe(res))
	results, err = ck.CheckAll(t.Context(), jobs)
	require.NoError(t, err)
	assert.Equal(t, checker.Fail, results[0].Status, "beside no gateway: %s", describe(results[0]))
}

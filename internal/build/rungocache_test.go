package build

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A grade run makes its own go build cache (hard links of every file in
// the cache's go-build) only for a race build that asks for it, and
// removes it at Close: a run without one, such as every run of a course
// without a concurrent exercise, links and removes nothing.
func TestGradeRunLinksGoCacheOnlyForRaceBuilds(t *testing.T) {
	dir := newBuilder(t).Dir()
	plain := grader(t, dir)
	prog, err := plain.Direct(context.Background(), tinyKit(t, plain), module1(t, tiny(`"plain"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "plain", run(t, prog))
	require.NoError(t, plain.Close())
	assert.Zero(t, plain.stats.goCacheLinks.Load(), "a run without a race build linked the go build cache")

	racing := grader(t, dir)
	racing.raceBuilt.Store(true) // as after the run's first race build
	own := racing.raceGoCache()
	shared, err := filepath.EvalSymlinks(racing.goCache())
	require.NoError(t, err)
	require.Equal(t, shared, filepath.Dir(own), "the run's go build cache")
	assert.Equal(t, own, racing.raceGoCache(), "made once a run")
	require.NoError(t, racing.Close())
	assert.EqualValues(t, 1, racing.stats.goCacheLinks.Load())
	_, err = os.Stat(own)
	assert.True(t, os.IsNotExist(err), "the run's go build cache is left after Close: %v", err)
}

package checker_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/build"
)

// A check builds the learner's program and runs it through the launcher
// program, not through kurs: here one planted in the check's own cache with
// its hash recorded, as if kurs had built it, which notes each start and
// hands over to the real one; the verdict stays the reference's.
func TestCheckStartsTheLauncherProgram(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	cache := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, os.Mkdir(cache, 0o700))
	// The go build cache is the shared one: nothing of the standard
	// library is compiled again.
	require.NoError(t, os.Symlink(filepath.Join(testBuild.Dir(), "go-build"), filepath.Join(cache, "go-build")))
	b, err := build.New(build.Options{Dir: cache, TempDir: t.TempDir()})
	require.NoError(t, err)
	defer b.Close()
	launcher, err := b.Launcher(context.Background())
	require.NoError(t, err)

	real := filepath.Join(t.TempDir(), "launcher")
	data, err := os.ReadFile(launcher)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(real, data, 0o755))
	started := filepath.Join(t.TempDir(), "started")
	script := "#!/bin/sh\necho \"${2:-plan}\" >> " + started + "\nexec " + real + " \"$@\"\n"
	require.NoError(t, os.Remove(launcher))
	require.NoError(t, os.WriteFile(launcher, []byte(script), 0o755))
	sum := sha256.Sum256([]byte(script))
	require.NoError(t, os.WriteFile(launcher+".sha256", []byte(hex.EncodeToString(sum[:])+"\n"), 0o600))

	files, err := ex.Solution()
	require.NoError(t, err)
	src := map[string]string{}
	for _, f := range files {
		src[f.Name] = string(f.Data)
	}
	res := check(t, &checker.Checker{Build: b, Timeout: corpusTimeout}, ex, folder(t, src))
	assert.Equal(t, checker.Pass, res.Status, describe(res))

	log, err := os.ReadFile(started)
	require.NoError(t, err, "the check never started the launcher program")
	var plans, programs int
	for _, l := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		if l == "plan" {
			plans++ // a plan's launcher has no program in its arguments
		} else {
			programs++
		}
	}
	assert.Positive(t, plans, "the build did not start through the launcher program:\n%s", log)
	assert.Equal(t, 1, programs, "the learner's program did not start through the launcher program:\n%s", log)
}

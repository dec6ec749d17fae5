package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/sandbox"
)

// confined runs prog (a static program of the module tiny) with its
// argument x, confined, through launcher, and returns what it printed.
func confined(t *testing.T, launcher, prog string) string {
	t.Helper()
	out, err := sandbox.Command(context.Background(), sandbox.Policy{Confine: true, Memory: 256 << 20, Launcher: launcher}, prog, "x").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return strings.TrimSpace(string(out))
}

// The launcher program is built once, kept with its hash, and confines a
// program as kurs would; it is not kurs.
func TestLauncherProgram(t *testing.T) {
	b := coldBuilder(t)
	ctx := context.Background()
	launcher, err := b.Launcher(ctx)
	require.NoError(t, err)
	require.FileExists(t, launcher+".sha256")
	prog, err := b.Judge(ctx, "x", tiny(`"confined"`))
	require.NoError(t, err)
	assert.Equal(t, "confined", confined(t, launcher, prog))

	again, err := b.Launcher(ctx)
	require.NoError(t, err)
	assert.Equal(t, launcher, again)
	// Started without a spec, it is a launcher and nothing else.
	out, err := sandbox.Trusted(ctx, launcher).CombinedOutput()
	assert.Error(t, err)
	assert.Equal(t, "kurs sandbox: no spec\n", string(out))
}

// plant replaces the file name by a script that touches planted when run,
// and, if it runs a program, runs it through real.
func plant(t *testing.T, name, planted, real string) {
	t.Helper()
	require.NoError(t, os.Remove(name))
	script := "#!/bin/sh\necho ran >> " + planted + "\n"
	if real != "" {
		script += "exec " + real + " \"$@\"\n"
	}
	require.NoError(t, os.WriteFile(name, []byte(script), 0o755))
}

// A launcher replaced in the cache is never handed out, to this Builder
// or the next: it is built anew.
func TestPlantedLauncherIsRebuilt(t *testing.T) {
	b := newBuilder(t)
	ctx := context.Background()
	launcher, err := b.Launcher(ctx)
	require.NoError(t, err)
	sum, _, err := hashFile(launcher)
	require.NoError(t, err)
	prog, err := b.Judge(ctx, "x", tiny(`"still"`))
	require.NoError(t, err)

	planted := filepath.Join(t.TempDir(), "planted")
	plant(t, launcher, planted, "")
	b2, err := New(Options{Dir: b.Dir(), TempDir: t.TempDir()})
	require.NoError(t, err)
	defer b2.Close()
	for _, b := range []*Builder{b2, b} {
		again, err := b.Launcher(ctx)
		require.NoError(t, err)
		assert.Equal(t, launcher, again)
		got, _, err := hashFile(again)
		require.NoError(t, err)
		assert.Equal(t, sum, got, "the launcher handed out is the one built")
		assert.Equal(t, "still", confined(t, again, prog))
		assert.NoFileExists(t, planted)
		plant(t, launcher, planted, "")
	}
}

// A direct build's compilers and linker start through the launcher
// program: here one planted with its hash recorded, as if kurs had built
// it, which notes each start and hands over to the real one.
func TestDirectBuildThroughLauncher(t *testing.T) {
	b := newBuilder(t)
	ctx := context.Background()
	launcher, err := b.Launcher(ctx)
	require.NoError(t, err)
	real := filepath.Join(t.TempDir(), "launcher")
	data, err := os.ReadFile(launcher)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(real, data, 0o755))
	started := filepath.Join(t.TempDir(), "started")
	plant(t, launcher, started, real)
	sum, _, err := hashFile(launcher)
	require.NoError(t, err)
	require.NoError(t, writeRecord(launcher+".sha256", sum+"\n"))

	k, err := b.Kit(ctx, []*course.Exercise{tinyExercise}, func() (map[string][]byte, error) { return tiny(`"hi"`), nil })
	require.NoError(t, err)
	prog, err := b.Direct(ctx, k, module1(t, tiny(`"direct"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "direct", run(t, prog))
	assert.FileExists(t, started, "the direct build did not start the launcher program")
}

// Where the launcher program cannot be built, there is none, and kurs
// (here the test binary) is the launcher, with the same confinement.
func TestNoLauncherProgram(t *testing.T) {
	b := coldBuilder(t)
	ctx := context.Background()
	prog, err := b.Judge(ctx, "x", tiny(`"self"`))
	require.NoError(t, err)
	broken, err := New(Options{Dir: b.Dir(), TempDir: t.TempDir(), Go: filepath.Join(t.TempDir(), "no-go")})
	require.NoError(t, err)
	defer broken.Close()
	launcher, err := broken.Launcher(ctx)
	assert.Error(t, err)
	assert.Empty(t, launcher)
	_, again := broken.Launcher(ctx)
	assert.Equal(t, err, again, "a Builder tries once")
	assert.Equal(t, "self", confined(t, broken.launcher(ctx), prog))
}

// A caller that stops waiting does not stop the build: the next caller
// gets the program.
func TestLauncherOutlivesItsCaller(t *testing.T) {
	b := coldBuilder(t)
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := b.Launcher(gone)
	assert.ErrorIs(t, err, context.Canceled)
	launcher, err := b.Launcher(context.Background())
	require.NoError(t, err)
	assert.FileExists(t, launcher)
}

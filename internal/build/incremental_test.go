package build

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
)

// withLearner returns tiny's module with src as the learner's package x.
func withLearner(src string) map[string][]byte {
	mod := tiny(`"unused"`)
	mod["x/x.go"] = []byte(src)
	return mod
}

// learnerSrc is a package x whose Hello returns what a function that is
// never inlined returns: a change of that function's body leaves x's
// export data as it was.
const learnerSrc = `package x

func Hello() string { return hello() }

//go:noinline
func hello() string { return "one" }
`

// directBuild builds mod directly with k and returns what ran, the
// program's hash and its output.
func directBuild(t *testing.T, b *Builder, k *Kit, mod map[string][]byte) (ran []string, sum, out string) {
	t.Helper()
	p, err := b.DirectProgram(context.Background(), k, module1(t, mod), []string{"x"})
	require.NoError(t, err)
	sum, err = FileSum(p.Path)
	require.NoError(t, err)
	require.Equal(t, sum, p.Sum, "the program's hash is the program's")
	return p.Ran, p.Sum, run(t, p.Path)
}

// Each save rebuilds what it changed and no more, and every program does
// what its sources say: the build keeps packages by their files, importers
// by the export data they compile against, and programs by their archives.
func TestDirectBuildRebuildsOnlyWhatChanged(t *testing.T) {
	b := newBuilder(t)
	k, err := b.Kit(context.Background(), []*course.Exercise{tinyExercise}, func() (map[string][]byte, error) { return tiny(`"hi"`), nil })
	require.NoError(t, err)
	learner, driver := module+"/x", module+"/internal/run/x"

	ran, first, out := directBuild(t, b, k, withLearner(learnerSrc))
	assert.Equal(t, []string{learner, driver, "main", "link"}, ran)
	assert.Equal(t, "one", out)

	t.Run("unchanged", func(t *testing.T) {
		ran, sum, out := directBuild(t, b, k, withLearner(learnerSrc))
		assert.Empty(t, ran, "nothing is compiled or linked again")
		assert.Equal(t, first, sum)
		assert.Equal(t, "one", out)
	})
	t.Run("comment at the end", func(t *testing.T) {
		ran, sum, out := directBuild(t, b, k, withLearner(learnerSrc+"\n// A note.\n"))
		assert.Equal(t, []string{learner}, ran, "the same archive: the same program")
		assert.Equal(t, first, sum)
		assert.Equal(t, "one", out)
	})
	t.Run("body whose export data stays", func(t *testing.T) {
		src := strings.Replace(learnerSrc, `"one"`, `"two"`, 1)
		ran, sum, out := directBuild(t, b, k, withLearner(src))
		assert.Equal(t, []string{learner, "link"}, ran)
		assert.NotEqual(t, first, sum)
		assert.Equal(t, "two", out)
	})
	t.Run("body of an exported function", func(t *testing.T) {
		// A learner's package is compiled without inlining: no body is
		// in its export data, and the test program is not compiled again.
		src := strings.Replace(learnerSrc, "return hello()", `return hello() + "!"`, 1)
		ran, _, out := directBuild(t, b, k, withLearner(src))
		assert.Equal(t, []string{learner, "link"}, ran)
		assert.Equal(t, "one!", out)
	})
	t.Run("a new exported name", func(t *testing.T) {
		// x's export data changes: the test program is compiled again
		// (main, whose import's export data stays, is not).
		src := learnerSrc + "\n// Extra is exported.\nconst Extra = 2\n"
		ran, _, out := directBuild(t, b, k, withLearner(src))
		assert.Equal(t, []string{learner, driver, "link"}, ran)
		assert.Equal(t, "one", out)
	})
	t.Run("API", func(t *testing.T) {
		src := strings.Replace(learnerSrc, "func Hello()", "func Greet()", 1)
		_, err := b.DirectProgram(context.Background(), k, module1(t, withLearner(src)), []string{"x"})
		var ce *CompileError
		require.True(t, errors.As(err, &ce), "%v", err)
		assert.Contains(t, ce.Output, "# "+driver+"\n")
		assert.Contains(t, ce.Output, "Hello")
	})
	t.Run("back to the start", func(t *testing.T) {
		ran, sum, out := directBuild(t, b, k, withLearner(learnerSrc))
		assert.Empty(t, ran)
		assert.Equal(t, first, sum)
		assert.Equal(t, "one", out)
	})
	t.Run("another kurs run", func(t *testing.T) {
		b2, err := New(Options{Dir: b.Dir(), TempDir: t.TempDir()})
		require.NoError(t, err)
		defer b2.Close()
		ran, sum, out := directBuild(t, b2, k, withLearner(learnerSrc))
		assert.Empty(t, ran)
		assert.Equal(t, first, sum)
		assert.Equal(t, "one", out)
		assert.Equal(t, Stats{}, b2.Stats())
	})
}

// A kept object that was changed after it was kept (here: every one of
// them, as a planted program and planted archives) is never used: what
// the sources say is built anew.
func TestChangedObjectsAreNotUsed(t *testing.T) {
	b := newBuilder(t)
	k, err := b.Kit(context.Background(), []*course.Exercise{tinyExercise}, func() (map[string][]byte, error) { return tiny(`"hi"`), nil })
	require.NoError(t, err)
	_, first, _ := directBuild(t, b, k, withLearner(learnerSrc))

	objects, err := filepath.Glob(filepath.Join(b.Dir(), "objects", "*.sha256"))
	require.NoError(t, err)
	require.Len(t, objects, 4, "three archives and a program")
	planted := filepath.Join(t.TempDir(), "planted")
	for _, rec := range objects {
		name := strings.TrimSuffix(rec, ".sha256")
		require.NoError(t, os.WriteFile(name, []byte("#!/bin/sh\ntouch "+planted+"\necho planted\n"), 0o600))
	}
	ran, sum, out := directBuild(t, b, k, withLearner(learnerSrc))
	assert.Equal(t, []string{module + "/x", module + "/internal/run/x", "main", "link"}, ran)
	assert.Equal(t, first, sum, "the same program as before it was planted")
	assert.Equal(t, "one", out)
	assert.NoFileExists(t, planted)

	// Kept anew: the next build takes them.
	ran, _, _ = directBuild(t, b, k, withLearner(learnerSrc))
	assert.Empty(t, ran)
}

// A guess of main's archive that the test program's new export data
// proves wrong is not linked: main is compiled for what came.
func TestMainGuessIsChecked(t *testing.T) {
	b := newBuilder(t)
	k, err := b.Kit(context.Background(), []*course.Exercise{tinyExercise}, func() (map[string][]byte, error) { return tiny(`"hi"`), nil })
	require.NoError(t, err)
	directBuild(t, b, k, withLearner(learnerSrc))

	// A test program with one more exported name: its export data is
	// another, which main's archive must have been compiled against.
	mod := withLearner(strings.Replace(learnerSrc, `"one"`, `"three"`, 1))
	mod["internal/run/x/run.go"] = append(mod["internal/run/x/run.go"], []byte("\n// Extra is exported.\nfunc Extra() int { return 1 }\n")...)
	ran, _, out := directBuild(t, b, k, mod)
	assert.Equal(t, []string{module + "/x", module + "/internal/run/x", "main", "link"}, ran)
	assert.Equal(t, "three", out)
}

// The race detector's build of the same module is made once and kept,
// checked by its hash like every object.
func TestRaceBuildIsKept(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler: no race detector")
	}
	b := raceBuilder(t)
	ctx := context.Background()
	mod := withLearner(learnerSrc)
	prog, err := b.Race(ctx, module1(t, mod), mod)
	require.NoError(t, err, "race build")
	assert.Equal(t, "one", run(t, prog))
	prog, err = b.Race(ctx, module1(t, mod), mod)
	require.NoError(t, err)
	assert.Equal(t, "one", run(t, prog))
	assert.Equal(t, 1, b.Stats().RaceBuilds)

	other := withLearner(strings.Replace(learnerSrc, `"one"`, `"two"`, 1))
	prog, err = b.Race(ctx, module1(t, other), other)
	require.NoError(t, err)
	assert.Equal(t, "two", run(t, prog))
	assert.Equal(t, 2, b.Stats().RaceBuilds)
}

// A race build asks the C compiler the Go linker's questions once: the
// next race build, of other code, finds every answer and links a program
// that runs as well.
func TestRaceLinkAsksOnce(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler: no race detector")
	}
	b := raceBuilder(t)
	// The seed's race build asked already: this cache forgets its answers.
	answers, err := filepath.Glob(filepath.Join(b.Dir(), "judges", extldID+".answers-*"))
	require.NoError(t, err)
	require.NotEmpty(t, answers, "the seed kept no answers")
	for _, a := range answers {
		require.NoError(t, os.Remove(a))
	}
	ctx := context.Background()
	mod := withLearner(learnerSrc)
	dir := module1(t, mod)
	prog, err := b.Race(ctx, dir, mod)
	require.NoError(t, err, "race build")
	assert.Equal(t, "one", run(t, prog))
	learned, err := os.ReadFile(filepath.Join(dir, ".kurs-extld-learned"))
	require.NoError(t, err, "the first race build asks the C compiler")
	assert.Regexp(t, `^((yes|no) -\S.*\n)+$`, string(learned))

	other := withLearner(strings.Replace(learnerSrc, `"one"`, `"two"`, 1))
	dir = module1(t, other)
	prog, err = b.Race(ctx, dir, other)
	require.NoError(t, err)
	assert.Equal(t, "two", run(t, prog))
	assert.NoFileExists(t, filepath.Join(dir, ".kurs-extld-learned"), "the second asks nothing")
	assert.Equal(t, 2, b.Stats().RaceBuilds)
}

// The kept objects stay within their bound with room for the next: the
// least recently taken go first, with their hashes, and what a killed kurs
// left half-written goes after an hour.
func TestTrimObjects(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	old := time.Now().Add(-2 * time.Hour)
	for i, name := range []string{"a", "b", "c"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), make([]byte, 100), 0o600))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".sha256"), []byte("x\n"), 0o600))
		used := old.Add(time.Duration(i) * time.Minute)
		require.NoError(t, os.Chtimes(filepath.Join(dir, name+".sha256"), used, used))
		// The objects' own times are in the other order: a use touches
		// the record, not the object.
		made := old.Add(-time.Duration(i) * time.Minute)
		require.NoError(t, os.Chtimes(filepath.Join(dir, name), made, made))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".new-1"), nil, 0o600))
	require.NoError(t, os.Chtimes(filepath.Join(dir, ".new-1"), old, old))

	trimObjects(root, 300, 0)
	assert.FileExists(t, filepath.Join(dir, "a"), "within the bound, nothing goes")
	assert.NoFileExists(t, filepath.Join(dir, ".new-1"))

	trimObjects(root, 300, 150)
	assert.NoFileExists(t, filepath.Join(dir, "a"))
	assert.NoFileExists(t, filepath.Join(dir, "a.sha256"))
	assert.NoFileExists(t, filepath.Join(dir, "b"), "room for 150 more under the bound")
	assert.FileExists(t, filepath.Join(dir, "c"))
	assert.FileExists(t, filepath.Join(dir, "c.sha256"))
}

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

// tiny is a module laid out as the checker lays out a learner's program of
// one exercise, x, with the package allow.
func tiny(hello string) map[string][]byte {
	return map[string][]byte{
		"go.mod":                  []byte("module " + module + "\n\ngo " + GoLanguage + "\n"),
		"x/x.go":                  []byte("package x\n\nfunc Hello() string { return " + hello + " }\n"),
		"internal/run/x/run.go":   []byte("package run\n\nimport (\n\t\"fmt\"\n\n\t\"" + module + "/x\"\n)\n\nfunc Main() { fmt.Println(x.Hello()) }\n"),
		"internal/run/main.go":    []byte("package main\n\nimport (\n\t\"os\"\n\n\tr0 \"" + module + "/internal/run/x\"\n)\n\nfunc main() {\n\tif len(os.Args) > 1 && os.Args[1] == \"x\" {\n\t\tr0.Main()\n\t}\n}\n"),
		"internal/allow/allow.go": []byte("package allow\n\nimport _ \"strings\"\n"),
	}
}

var tinyExercise = &course.Exercise{ID: "x"}

func run(t *testing.T, prog string) string {
	t.Helper()
	out, err := exec.Command(prog, "x").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return strings.TrimSpace(string(out))
}

func module1(t *testing.T, mod map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, WriteModule(dir, mod))
	return dir
}

// The direct build and the go command build the same program; a compile
// error is the learner's, in the go command's words.
func TestDirectAndGo(t *testing.T) {
	b := newBuilder(t)
	ctx := context.Background()
	k, err := b.Kit(ctx, []*course.Exercise{tinyExercise}, func() (map[string][]byte, error) { return tiny(`"hi"`), nil })
	require.NoError(t, err)
	prog, err := b.Direct(ctx, k, module1(t, tiny(`"direct"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "direct", run(t, prog))
	prog, err = b.Go(ctx, module1(t, tiny(`"go"`)))
	require.NoError(t, err)
	assert.Equal(t, "go", run(t, prog))

	_, err = b.Direct(ctx, k, module1(t, tiny(`1`)), []string{"x"})
	var ce *CompileError
	require.True(t, errors.As(err, &ce), "%v", err)
	assert.Contains(t, ce.Output, "# "+module+"/x\n")
	_, err = b.Go(ctx, module1(t, tiny(`1`)))
	require.True(t, errors.As(err, &ce), "%v", err)
}

// A kit whose archive is lost or changed is not linked: the build falls
// back to the go command, and the next kit is made anew and whole.
func TestKitLostOrChangedArchive(t *testing.T) {
	for _, how := range []string{"lost", "changed"} {
		t.Run(how, func(t *testing.T) {
			b := newBuilder(t)
			ctx := context.Background()
			probe := func() (map[string][]byte, error) { return tiny(`"hi"`), nil }
			k, err := b.Kit(ctx, []*course.Exercise{tinyExercise}, probe)
			require.NoError(t, err)
			file := filepath.Join(k.dir, k.Packages[0].File)
			if how == "lost" {
				require.NoError(t, os.Remove(file))
			} else {
				require.NoError(t, os.Remove(file)) // a hard link into the go cache: never write through it
				require.NoError(t, os.WriteFile(file, []byte("!<arch>\nplanted"), 0o600))
			}
			_, err = b.Direct(ctx, k, module1(t, tiny(`"x"`)), []string{"x"})
			assert.True(t, errors.Is(err, ErrKitBroken), "%v", err)
			_, err = os.Stat(k.dir)
			assert.True(t, errors.Is(err, os.ErrNotExist), "the broken kit is gone")

			k2, err := b.Kit(ctx, []*course.Exercise{tinyExercise}, probe)
			require.NoError(t, err)
			require.NoError(t, b.verifyKit(k2))
			prog, err := b.Direct(ctx, k2, module1(t, tiny(`"again"`)), []string{"x"})
			require.NoError(t, err)
			assert.Equal(t, "again", run(t, prog))
		})
	}
}

// A judge replaced in the cache (here by a script) is never handed out:
// it is built anew.
func TestPlantedJudgeIsRebuilt(t *testing.T) {
	b := coldBuilder(t)
	ctx := context.Background()
	judge, err := b.Judge(ctx, "x", tiny(`"judge"`))
	require.NoError(t, err)
	assert.Equal(t, "judge", run(t, judge))

	planted := filepath.Join(t.TempDir(), "planted")
	require.NoError(t, os.Remove(judge))
	require.NoError(t, os.WriteFile(judge, []byte("#!/bin/sh\ntouch "+planted+"\necho planted\n"), 0o755))
	// Another Builder of the same cache, as the next kurs run.
	b2, err := New(Options{Dir: b.Dir(), TempDir: t.TempDir()})
	require.NoError(t, err)
	defer b2.Close()
	again, err := b2.Judge(ctx, "x", tiny(`"judge"`))
	require.NoError(t, err)
	assert.Equal(t, judge, again)
	assert.Equal(t, "judge", run(t, again))
	assert.NoFileExists(t, planted)

	// The same Builder notices too, though it checked the judge before.
	require.NoError(t, os.Remove(judge))
	require.NoError(t, os.WriteFile(judge, []byte("#!/bin/sh\ntouch "+planted+"\necho planted\n"), 0o755))
	again, err = b.Judge(ctx, "x", tiny(`"judge"`))
	require.NoError(t, err)
	assert.Equal(t, "judge", run(t, again))
	assert.NoFileExists(t, planted)
}

// A cache folder that others may write into, or that is someone else's,
// is refused, and nothing is written into it.
func TestUnsafeCacheIsRefused(t *testing.T) {
	t.Run("open to all", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "cache")
		require.NoError(t, os.Mkdir(dir, 0o700))
		require.NoError(t, os.Chmod(dir, 0o777))
		_, err := New(Options{Dir: dir})
		var ue *UnsafeError
		require.True(t, errors.As(err, &ue), "%v", err)
		assert.Equal(t, dir, ue.Dir)
		assert.False(t, ue.Foreign)
		assertEmpty(t, dir)
	})
	t.Run("under a folder open to all", func(t *testing.T) {
		open := filepath.Join(t.TempDir(), "open")
		require.NoError(t, os.Mkdir(open, 0o700))
		require.NoError(t, os.Chmod(open, 0o777))
		_, err := New(Options{Dir: filepath.Join(open, "kurs")})
		var ue *UnsafeError
		require.True(t, errors.As(err, &ue), "%v", err)
		assert.Equal(t, open, ue.Dir)
	})
	t.Run("a link in the temporary folder", func(t *testing.T) {
		tmp := t.TempDir()
		t.Setenv(CacheEnv, "")
		t.Setenv("XDG_CACHE_HOME", "")
		t.Setenv("HOME", "")
		t.Setenv("TMPDIR", tmp)
		dir, temp := DefaultDir()
		require.True(t, temp)
		require.Equal(t, tmp, filepath.Dir(dir))
		elsewhere := t.TempDir()
		require.NoError(t, os.Symlink(elsewhere, dir))
		_, err := New(Options{})
		var ue *UnsafeError
		require.True(t, errors.As(err, &ue), "%v", err)
		assertEmpty(t, elsewhere)
	})
	t.Run("someone else's in the temporary folder", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("only root can give a folder to another user")
		}
		tmp := t.TempDir()
		t.Setenv(CacheEnv, "")
		t.Setenv("XDG_CACHE_HOME", "")
		t.Setenv("HOME", "")
		t.Setenv("TMPDIR", tmp)
		dir, _ := DefaultDir()
		require.NoError(t, os.Mkdir(dir, 0o700))
		require.NoError(t, os.Chown(dir, 65534, 65534))
		_, err := New(Options{})
		var ue *UnsafeError
		require.True(t, errors.As(err, &ue), "%v", err)
		assert.True(t, ue.Foreign)
		assert.Equal(t, dir, ue.Dir)
		assertEmpty(t, dir)
	})
	t.Run("made by kurs", func(t *testing.T) {
		tmp := t.TempDir()
		t.Setenv(CacheEnv, "")
		t.Setenv("XDG_CACHE_HOME", "")
		t.Setenv("HOME", "")
		t.Setenv("TMPDIR", tmp)
		b, err := New(Options{})
		require.NoError(t, err)
		defer b.Close()
		info, err := os.Stat(b.Dir())
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
	})
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "written into %s", dir)
}

// Close stops a trim of the go build cache that is under way.
func TestCloseStopsTrimming(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	b, err := New(Options{Dir: dir})
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(b.goCache(), 0o700))
	b.trimSoon()
	done := make(chan struct{})
	go func() { b.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return")
	}
	b.trimSoon() // after Close: nothing starts
	b.bg.Wait()
}

func TestReleaseTags(t *testing.T) {
	tags := releaseTags("go1.26.8")
	assert.Len(t, tags, 26)
	assert.Equal(t, "go1.1", tags[0])
	assert.Equal(t, "go1.26", tags[25])
	assert.Equal(t, releaseTags("go1.24rc1")[23], "go1.24")
}

// A direct build compiles the files go build would: build constraints, the
// learner's build tag and the toolchain's platform decide.
func TestDirectBuildSelectsFilesAsGoBuild(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.go":         "package p\n",
		"b_windows.go": "package p\n",
		"c_linux.go":   "package p\n",
		"d.go":         "//go:build ignore\n\npackage p\n",
		"e.go":         "//go:build kurs_learner\n\npackage p\n",
		"f.go":         "//go:build !kurs_learner\n\npackage p\n",
		"g_test.go":    "package p\n",
		"h.go":         "//go:build go1.99\n\npackage p\n",
		"i.go":         "//go:build go1.20\n\npackage p\n",
	}
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	names, err := goFiles(dir, &Kit{GOOS: "linux", GOARCH: "amd64", Version: "go1.26.8"})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.go", "c_linux.go", "e.go", "i.go"}, names)
}

// A build limit is read from the tool's status and its own lines, never
// from a compiler message that quotes the learner's text.
func TestLimitHitReadsOnlyTheTools(t *testing.T) {
	assert.True(t, limitHit("signal: killed", ""))
	assert.True(t, limitHit("exit status 2", "fatal error: runtime: out of memory\n\ngoroutine 1 [running]:"))
	assert.False(t, limitHit("exit status 1", `./circuitbreaker/cb.go:3:13: cannot use "fatal error: runtime: out of memory" (untyped string constant) as int value`))
	assert.False(t, limitHit("exit status 1", "./circuitbreaker/cb.go:3:13: file too large"))
	assert.True(t, limitHit("exit status 2", "SIGSEGV: segmentation violation\nPC=0x43cefd m=2 sigcode=1 addr=0x0\ngoroutine 0 gp=0x38fc11cb4b40 m=2 [idle]:\nruntime.(*spanQueue).tryDrain(0x400?, 0x2700000?, 0x0?)"))
	assert.False(t, limitHit("exit status 1", `./circuitbreaker/cb.go:3:13: cannot use "SIGSEGV: segmentation violation" (untyped string constant) as int value`))
	assert.False(t, buildLimited(`# kurs/circuitbreaker`+"\n"+`./cb.go:3:13: cannot use "SIGSEGV: segmentation violation" (untyped string constant) as int value`))
}

// Kits unused for a week go, and so do the leftovers of a kit being made or
// dropped when kurs was killed; the kit in use and recent ones stay.
func TestTrimKits(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-8 * 24 * time.Hour)
	mk := func(name string, withJSON bool, mod time.Time) string {
		dir := filepath.Join(root, name)
		require.NoError(t, os.Mkdir(dir, 0o755))
		if withJSON {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "kit.json"), []byte("{}"), 0o644))
			require.NoError(t, os.Chtimes(filepath.Join(dir, "kit.json"), mod, mod))
		}
		require.NoError(t, os.Chtimes(dir, mod, mod))
		return dir
	}
	keep := mk("4-keep", true, old)
	mk("4-stale", true, old)
	recent := mk("4-recent", true, time.Now())
	mk(".new-123", false, old)
	mk("4-x.gone-abc", false, old)
	newer := mk(".new-456", false, time.Now())
	trimKits(root, keep)
	var left []string
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	for _, e := range entries {
		left = append(left, filepath.Join(root, e.Name()))
	}
	assert.ElementsMatch(t, []string{keep, recent, newer}, left)
}

// A dropped kit is gone from disk and no longer handed out.
func TestDropKit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "4-k")
	require.NoError(t, os.Mkdir(dir, 0o755))
	b, err := New(Options{Dir: filepath.Join(t.TempDir(), "cache")})
	require.NoError(t, err)
	defer b.Close()
	k := &Kit{dir: dir}
	e := &kitEntry{kit: k, done: true}
	b.kitMu.Lock()
	b.kits = append(b.kits, e)
	b.kitMu.Unlock()
	b.dropKit(k)
	_, err = os.Stat(dir)
	assert.True(t, errors.Is(err, os.ErrNotExist))
	b.kitMu.Lock()
	defer b.kitMu.Unlock()
	assert.NotContains(t, b.kits, e)
}

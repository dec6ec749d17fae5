package checker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
)

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
	names, err := goFiles(dir, &kit{GOOS: "linux", GOARCH: "amd64", Version: "go1.26.8"})
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
}

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

// writeModule writes the learner's program of exs with the corpus case in
// each dirs[i] into a new folder, as CheckAll does.
func writeModule(t *testing.T, exs []*course.Exercise, dirs []string) string {
	t.Helper()
	files := make([][]source, len(exs))
	todo := make([]int, len(exs))
	for i, ex := range exs {
		src, err := readSources(dirs[i], ex.ID)
		require.NoError(t, err)
		files[i], todo[i] = src, i
	}
	mod, err := combinedModule(exs, files, todo)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, writeFiles(dir, mod))
	return dir
}

// A kit that lost an archive makes a direct build fall back to the go
// command, and only then is it found broken; a learner's compile error
// that names kurs's words for a missing archive is the learner's error.
func TestKitThatLostAnArchive(t *testing.T) {
	exs := firstLesson(t)[:1]
	c := &Checker{TempDir: t.TempDir()}
	ctx := context.Background()
	k, err := c.kitFor(ctx, exs)
	require.NoError(t, err)
	require.True(t, k.whole())

	// A copy of the kit without the archive of fmt.
	copyDir := filepath.Join(t.TempDir(), "kit")
	require.NoError(t, os.CopyFS(copyDir, os.DirFS(k.dir)))
	broken := *k
	broken.dir = copyDir
	broken.Config = strings.ReplaceAll(k.Config, k.dir, copyDir)
	require.NoError(t, os.WriteFile(filepath.Join(copyDir, "importcfg"), []byte(broken.Config), 0o644))
	var lost string
	for line := range strings.SplitSeq(broken.Config, "\n") {
		if pkg, file, _ := strings.Cut(strings.TrimPrefix(line, "packagefile "), "="); pkg == "strconv" {
			lost = file
		}
	}
	require.NotEmpty(t, lost)
	require.NoError(t, os.Remove(lost))
	assert.False(t, broken.whole())

	ref := filepath.Join("testdata", "submissions", "all-pass", "circuitbreaker")
	_, p, err := c.buildDirect(ctx, &broken, writeModule(t, exs, []string{ref}), exs, []int{0})
	assert.Nil(t, p)
	assert.True(t, errors.Is(err, errKitBroken), "%v", err)

	learner := t.TempDir()
	src, err := os.ReadFile(filepath.Join(ref, "circuitbreaker.go"))
	require.NoError(t, err)
	src = append(src, "\nvar _ int = \"could not import no such file or directory object is [\"\n"...)
	require.NoError(t, os.WriteFile(filepath.Join(learner, "circuitbreaker.go"), src, 0o644))
	_, p, err = c.buildDirect(ctx, k, writeModule(t, exs, []string{learner}), exs, []int{0})
	require.NoError(t, err)
	if assert.NotNil(t, p) {
		assert.Equal(t, ProblemCompile, p.Kind)
	}
	assert.True(t, k.whole(), "the kit is untouched")
}

// The direct build and the go command give the same results on corpus
// cases that pass, fail, do not compile and break the API, in one build.
func TestDirectBuildAgreesWithGoBuild(t *testing.T) {
	exs := firstLesson(t)
	rounds := [][]string{
		{"all-pass", "all-pass", "all-pass"},
		{"cb-error-syntax", "tb-fail-no-cap", "quiz-fail-swapped"},
		{"cb-error-wrong-signature", "tb-error-wrong-package", "quiz-pass-init"},
		{"cb-error-missing-method", "tb-fail-gt-one", "quiz-fail-one-wrong"},
	}
	for _, round := range rounds {
		var dirs []string
		for i, name := range round {
			dir := filepath.Join("testdata", "submissions", name, exs[i].ID)
			_, err := os.Stat(dir)
			require.NoError(t, err)
			dirs = append(dirs, dir)
		}
		direct, err := (&Checker{TempDir: t.TempDir()}).CheckAll(context.Background(), exs, dirs)
		require.NoError(t, err)
		viaGo, err := (&Checker{TempDir: t.TempDir(), noDirect: true}).CheckAll(context.Background(), exs, dirs)
		require.NoError(t, err)
		for i := range exs {
			a, b := direct[i], viaGo[i]
			assert.Equal(t, b.Status, a.Status, "%s/%s", round[i], exs[i].ID)
			assert.Equal(t, b.Score, a.Score, "%s/%s", round[i], exs[i].ID)
			assert.Equal(t, b.Problem, a.Problem, "%s/%s", round[i], exs[i].ID)
			assert.True(t, slices.EqualFunc(a.Tests, b.Tests, func(x, y Test) bool { return x.Name == y.Name && x.Status == y.Status }),
				"%s/%s: the tests' results differ", round[i], exs[i].ID)
		}
	}
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
	k := &kit{dir: dir}
	e := &kitEntry{kit: k, done: true}
	kitMu.Lock()
	kitList = append(kitList, e)
	kitMu.Unlock()
	dropKit(k)
	_, err := os.Stat(dir)
	assert.True(t, errors.Is(err, os.ErrNotExist))
	kitMu.Lock()
	defer kitMu.Unlock()
	assert.NotContains(t, kitList, e)
}

package build

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grader returns a Builder of the cache dir that keeps its objects as
// kurs grade does, closed at the end of the test.
func grader(t *testing.T, dir string) *Builder {
	t.Helper()
	b, err := New(Options{Dir: dir, TempDir: t.TempDir()})
	require.NoError(t, err)
	b.KeepObjectsForGrading()
	t.Cleanup(func() { b.Close() })
	return b
}

// objectFiles lists the regular files of the folder dir with their sizes
// and inodes: a file kept again, even with the same content, is another
// file (keep renames a new one into place).
func objectFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var files []string
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == ".lock" {
			continue
		}
		info, err := e.Info()
		require.NoError(t, err)
		files = append(files, fmt.Sprintf("%s %d %d", e.Name(), info.Size(), info.Sys().(*syscall.Stat_t).Ino))
	}
	return files
}

// checkedCache returns a cache in which a learner's check built a program
// ("checked"), and the learner's objects it kept.
func checkedCache(t *testing.T) (dir string, learners []string) {
	t.Helper()
	check := newBuilder(t)
	prog, err := check.Direct(context.Background(), tinyKit(t, check), module1(t, tiny(`"checked"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "checked", run(t, prog))
	require.NoError(t, check.Close())
	learners = objectFiles(t, filepath.Join(check.Dir(), objectsFolder))
	require.NotEmpty(t, learners)
	return check.Dir(), learners
}

// A regrade of the same files, by another kurs grade, compiles and links
// nothing; a submission with other files still builds; and grading keeps
// no object in the cache's folder of the learner's objects.
func TestRegradeBuildsNothing(t *testing.T) {
	dir := newBuilder(t).Dir()
	ctx := context.Background()
	first := grader(t, dir)
	k := tinyKit(t, first)
	prog, err := first.Direct(ctx, k, module1(t, tiny(`"graded"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "graded", run(t, prog))
	require.Equal(t, 1, first.Stats().Links)
	require.NoError(t, first.Close())
	kept := objectFiles(t, filepath.Join(dir, gradeObjectsFolder))
	require.NotEmpty(t, kept)

	again := grader(t, dir)
	prog, err = again.Direct(ctx, tinyKit(t, again), module1(t, tiny(`"graded"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "graded", run(t, prog))
	assert.Equal(t, Stats{}, again.Stats(), "the regrade built")
	assert.Equal(t, kept, objectFiles(t, filepath.Join(dir, gradeObjectsFolder)), "the regrade kept an object again")

	prog, err = again.Direct(ctx, tinyKit(t, again), module1(t, tiny(`"other"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "other", run(t, prog))
	assert.Equal(t, 1, again.Stats().Links, "another submission is linked")
	require.NoError(t, again.Close())
	assert.Empty(t, objectFiles(t, filepath.Join(dir, objectsFolder)), "grading kept an object among the learner's")
}

// A race detector's build that a grade made is not made again by the
// next grade of the same files.
func TestRegradeBuildsNoRaceProgram(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler: no race detector")
	}
	dir := raceBuilder(t).Dir()
	ctx := context.Background()
	mod := withLearner(strings.Replace(learnerSrc, `"one"`, `"raced"`, 1))
	for i, want := range []int{1, 0} {
		b := grader(t, dir)
		prog, err := b.Race(ctx, module1(t, mod), mod)
		require.NoError(t, err, "race build")
		assert.Equal(t, "raced", run(t, prog))
		assert.Equal(t, want, b.Stats().RaceBuilds, "grade %d", i+1)
		require.NoError(t, b.Close())
	}
	assert.Empty(t, objectFiles(t, filepath.Join(dir, objectsFolder)), "grading kept an object among the learner's")
}

// kurs grade looks objects up in the cache's too: a submission whose
// files a check built before (an untouched skeleton) is neither compiled
// nor linked again, and the run adds nothing to the learner's objects.
func TestGradeFindsTheLearnersObjects(t *testing.T) {
	ctx := context.Background()
	dir, before := checkedCache(t)

	grade := grader(t, dir)
	k := tinyKit(t, grade)
	prog, err := grade.Direct(ctx, k, module1(t, tiny(`"checked"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "checked", run(t, prog))
	assert.Zero(t, grade.Stats().Compiles, "the checked files compiled again")
	assert.Zero(t, grade.Stats().Links, "the checked program linked again")
	prog, err = grade.Direct(ctx, k, module1(t, tiny(`"graded"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "graded", run(t, prog))
	assert.Equal(t, 1, grade.Stats().Links, "a new submission is linked")
	require.NoError(t, grade.Close())
	assert.Equal(t, before, objectFiles(t, filepath.Join(dir, objectsFolder)), "the run changed the learner's objects")
}

// Grading never pushes out a learner's object, however much it builds:
// its own objects stay within their bound (KURS_CACHE_GRADE_OBJECTS, 3
// MiB here, where a program is about 1.5 MiB), the least recently used
// going first, so that the first of several submissions is linked again.
func TestGradeNeverEvictsTheLearnersObjects(t *testing.T) {
	ctx := context.Background()
	dir, learners := checkedCache(t)

	t.Setenv(GradeObjectsEnv, "3")
	grade := grader(t, dir)
	k := tinyKit(t, grade)
	for i := range 4 {
		hello := fmt.Sprintf(`"graded %d"`, i)
		prog, err := grade.Direct(ctx, k, module1(t, tiny(hello)), []string{"x"})
		require.NoError(t, err)
		assert.Equal(t, strings.Trim(hello, `"`), run(t, prog))
		// The bound, and the hashes recorded beside the objects.
		assert.LessOrEqual(t, objectsSize(filepath.Join(dir, gradeObjectsFolder)), int64(3<<20+16<<10))
	}
	require.Equal(t, 4, grade.Stats().Links)
	prog, err := grade.Direct(ctx, k, module1(t, tiny(`"graded 0"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "graded 0", run(t, prog))
	assert.Equal(t, 5, grade.Stats().Links, "the first program outlived the bound")
	require.NoError(t, grade.Close())
	assert.Equal(t, learners, objectFiles(t, filepath.Join(dir, objectsFolder)), "grading changed the learner's objects")
}

// A grade object that was changed after it was kept is not used: the
// regrade links anew, and the program is the right one.
func TestChangedGradeObjectIsNotUsed(t *testing.T) {
	dir := newBuilder(t).Dir()
	ctx := context.Background()
	first := grader(t, dir)
	prog, err := first.Direct(ctx, tinyKit(t, first), module1(t, tiny(`"graded"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "graded", run(t, prog))
	require.NoError(t, first.Close())

	// The program is the only object there that can be run.
	var progs []string
	entries, err := os.ReadDir(filepath.Join(dir, gradeObjectsFolder))
	require.NoError(t, err)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && info.Mode()&0o100 != 0 {
			progs = append(progs, filepath.Join(dir, gradeObjectsFolder, e.Name()))
		}
	}
	require.Len(t, progs, 1)
	f, err := os.OpenFile(progs[0], os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("XXXX"), 4096)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	again := grader(t, dir)
	prog, err = again.Direct(ctx, tinyKit(t, again), module1(t, tiny(`"graded"`)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "graded", run(t, prog))
	assert.Equal(t, 1, again.Stats().Links, "the changed program was used")
}

// Several kurs grade processes on one machine (shards, each with -j 2)
// keep objects in the same folder at once: it holds no more than its
// bound and one object at any moment, no object is ever seen half
// written, and the learner's objects are left alone.
func TestGradeShardsShareTheBound(t *testing.T) {
	const size = 700 << 10
	t.Setenv(GradeObjectsEnv, "2")
	dir := coldBuilder(t).Dir()
	check, err := New(Options{Dir: dir, TempDir: t.TempDir()})
	require.NoError(t, err)
	src := filepath.Join(t.TempDir(), "learner")
	require.NoError(t, os.WriteFile(src, make([]byte, size), 0o600))
	_, err = check.keep("learner", src, 0o600)
	require.NoError(t, err)
	require.NoError(t, check.Close())
	learners := objectFiles(t, filepath.Join(dir, objectsFolder))

	grades := filepath.Join(dir, gradeObjectsFolder)
	stop := sampleSize(grades)
	var wg sync.WaitGroup
	for shard := range 3 {
		b := grader(t, dir)
		for lane := range 2 {
			wg.Go(func() {
				for i := range 10 {
					name := fmt.Sprintf("s%dl%do%d", shard, lane, i)
					src := filepath.Join(t.TempDir(), name)
					data := []byte(strings.Repeat(name, size/len(name)))
					if !assert.NoError(t, os.WriteFile(src, data, 0o600)) {
						return
					}
					sum, err := b.keep(name, src, 0o600)
					if !assert.NoError(t, err) {
						return
					}
					dst := filepath.Join(t.TempDir(), "fetched")
					if got, ok := b.fetch(name, dst, 0o600); ok {
						back, err := os.ReadFile(dst)
						assert.NoError(t, err)
						assert.Equal(t, sum, got)
						assert.True(t, slices.Equal(data, back), "an object other than the one kept")
					}
				}
			})
		}
	}
	wg.Wait()
	most, _ := stop()
	assert.LessOrEqual(t, most, int64(2<<20+size), "more than the bound and one object")
	assert.Greater(t, most, int64(2<<20-size), "the folder was used")
	assert.Equal(t, learners, objectFiles(t, filepath.Join(dir, objectsFolder)), "grading changed the learner's objects")
	left := objectFiles(t, grades)
	assert.True(t, slices.IndexFunc(left, func(f string) bool { return strings.HasPrefix(f, ".new-") }) < 0, "a half-kept object was left: %v", left)
}

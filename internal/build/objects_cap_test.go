package build

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
)

// objectsSize sums the regular files in dir, as du would: what the store
// holds at this moment, half-written objects included.
func objectsSize(dir string) int64 {
	var total int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			total += info.Size()
		}
	}
	return total
}

// bigModule is a learner's program of its own with a string constant of
// size bytes: a correct solution can make a large program. The constant
// is digits and x alone, quoted as it is: quoting megabytes with %q cost
// more than writing them.
func bigModule(i, size int) map[string][]byte {
	return tiny(`"` + fmt.Sprint(i) + strings.Repeat("x", size) + `"[:2]`)
}

// TestObjectsCapHoldsAtEveryMoment builds 8 distinct programs of some
// megabytes each, two at a time as kurs grade -j 2 does, while a sampler
// measures objects/ every millisecond: it never holds more than the cap
// plus one program. Each check keeps about 7.5 MiB, so the cap of 12 MiB
// has to trim before all but the first keep. A program over maxObject is
// not kept at all.
func TestObjectsCapHoldsAtEveryMoment(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 9 programs")
	}
	b := newBuilder(t)
	const limit = 12 << 20
	b.objectsCap = limit
	most, biggest := buildWhileSampling(t, b, 8, 3<<20)
	assert.LessOrEqual(t, most, limit+biggest, "never more than the cap and one program")
	assert.Greater(t, most, int64(limit/2), "the store was used")

	// A program over maxObject is built, and not kept.
	dir := filepath.Join(b.Dir(), "objects")
	k := tinyKit(t, b)
	prog, err := b.Direct(context.Background(), k, module1(t, bigModule(99, maxObject)), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, "99", run(t, prog))
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			info, ierr := d.Info()
			require.NoError(t, ierr)
			assert.LessOrEqual(t, info.Size(), int64(maxObject), "%s is kept", p)
		}
		return err
	}))
}

// TestObjectsCapWithLargePrograms is the case: distinct correct
// solutions with a string constant over maxObject each (an archive and a
// program larger than any object kept), two at a time. objects/, sampled
// every millisecond, never holds more than the cap plus one program; none
// of these objects is kept at all. The 20 solutions of 32 MiB
// under the cap of 256 MiB are scaled down to 4 of 9 MiB under a bound of
// 16 MiB, set as a user sets it (KURS_CACHE_OBJECTS): were they kept, the
// bound and one program (26 MiB) would be passed after two checks (about
// 19 MiB each), and any one of them is over maxObject.
func TestObjectsCapWithLargePrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 4 programs of 10 MB")
	}
	t.Setenv(ObjectsEnv, "16")
	b := newBuilder(t)
	require.Equal(t, int64(16<<20), b.objectsLimit())
	most, biggest := buildWhileSampling(t, b, 4, maxObject+1<<20)
	assert.Greater(t, biggest, int64(maxObject), "the programs are over maxObject")
	assert.LessOrEqual(t, most, b.objectsLimit()+biggest, "never more than the cap and one program")
	assert.Less(t, most, int64(maxObject), "none of them kept")
}

// tinyKit returns a kit for tinyExercise.
func tinyKit(t *testing.T, b *Builder) *Kit {
	t.Helper()
	k, err := b.Kit(context.Background(), []*course.Exercise{tinyExercise}, func() (map[string][]byte, error) { return tiny(`"hi"`), nil })
	require.NoError(t, err)
	return k
}

// buildWhileSampling builds n distinct programs with a string constant of
// size bytes each, two at a time as kurs grade -j 2 does, and runs each,
// while a sampler measures objects/ every millisecond. It returns the
// most objects/ held in any sample and the largest program.
func buildWhileSampling(t *testing.T, b *Builder, n, size int) (most, biggest int64) {
	t.Helper()
	ctx := context.Background()
	k := tinyKit(t, b)
	dir := filepath.Join(b.Dir(), "objects")

	var biggestSeen atomic.Int64
	stop := sampleSize(dir)
	var wg sync.WaitGroup
	work := make(chan int)
	for range 2 {
		wg.Go(func() {
			for i := range work {
				prog, err := b.Direct(ctx, k, module1(t, bigModule(i, size)), []string{"x"})
				if !assert.NoError(t, err) {
					continue
				}
				assert.Equal(t, (fmt.Sprint(i) + "x")[:2], run(t, prog))
				if info, err := os.Stat(prog); err == nil {
					raise(&biggestSeen, info.Size())
				}
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	most, samples := stop()
	t.Logf("%d programs of %.1f MiB at most: objects/ at most %.1f MiB in %d samples", n,
		float64(biggestSeen.Load())/(1<<20), float64(most)/(1<<20), samples)
	require.Greater(t, biggestSeen.Load(), int64(size), "the programs are big")
	require.Greater(t, samples, int64(n))
	return most, biggestSeen.Load()
}

// sampleSize measures the objects in dir every millisecond until the
// returned stop is called, which returns the most they held in any sample
// and how many samples it took.
func sampleSize(dir string) (stop func() (most, samples int64)) {
	var mostSeen, taken atomic.Int64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
			taken.Add(1)
			raise(&mostSeen, objectsSize(dir))
		}
	}()
	return func() (int64, int64) {
		close(done)
		<-sampled
		return mostSeen.Load(), taken.Load()
	}
}

// raise sets v to n when n is larger, whoever else raises it at once.
func raise(v *atomic.Int64, n int64) {
	for m := v.Load(); n > m && !v.CompareAndSwap(m, n); m = v.Load() {
	}
}

// KURS_CACHE_OBJECTS bounds the kept objects in MiB instead of 256: two
// objects of 700 KiB fit under the default, one under a bound of 1 MiB.
func TestObjectsEnvBoundsTheStore(t *testing.T) {
	for _, tc := range []struct {
		env  string
		kept int
	}{{"", 2}, {"1", 1}, {"none", 2}} {
		t.Run("env="+tc.env, func(t *testing.T) {
			t.Setenv(ObjectsEnv, tc.env)
			b, err := New(Options{Dir: filepath.Join(t.TempDir(), "cache"), TempDir: t.TempDir()})
			require.NoError(t, err)
			defer b.Close()
			for _, name := range []string{"first", "second"} {
				src := filepath.Join(t.TempDir(), name)
				require.NoError(t, os.WriteFile(src, make([]byte, 700<<10), 0o600))
				_, err := b.keep(name, src, 0o600)
				require.NoError(t, err)
			}
			dir := filepath.Join(b.Dir(), "objects")
			assert.FileExists(t, filepath.Join(dir, "second"))
			if tc.kept == 2 {
				assert.FileExists(t, filepath.Join(dir, "first"))
			} else {
				assert.NoFileExists(t, filepath.Join(dir, "first"), "the least recently kept stays beyond the bound")
			}
		})
	}
}

// An object over maxObject is not kept; the build goes on without it.
func TestLargeObjectIsNotKept(t *testing.T) {
	b, err := New(Options{Dir: filepath.Join(t.TempDir(), "cache")})
	require.NoError(t, err)
	defer b.Close()
	src := filepath.Join(t.TempDir(), "prog")
	require.NoError(t, os.WriteFile(src, make([]byte, maxObject+1), 0o755))
	_, err = b.keep("big", src, 0o755)
	assert.True(t, errors.Is(err, errNotKept), "%v", err)
	assert.Zero(t, objectsSize(filepath.Join(b.Dir(), "objects")))
}

// kurs grade's race builds after its first that the go command makes
// write what only their submission uses into a go build cache of the
// run's own, which goes with the run: the cache's go-build gains none of
// it. (The first uses the cache's own, so that the standard library built
// for the race detector stays there for the next run.) Grading 1,000
// distinct submissions once added some 180 KiB each there; bench/cachegrowth
// measures the whole. The race kit is made from the first submission,
// which imports less than the others: theirs are the go command's builds.
func TestGradeRunLeavesNoGoBuildEntries(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler: no race detector")
	}
	b := raceBuilder(t)
	b.KeepObjectsForGrading()
	ctx := context.Background()
	var made []string
	for i, hello := range []string{`"graded one"`, `"graded two"`, `"graded three"`} {
		src := learnerSrc
		if i > 0 {
			src = strings.Replace(src, "package x\n", "package x\n\nimport \"container/list\"\n\nvar _ = list.New\n", 1)
		}
		mod := withLearner(strings.Replace(src, `"one"`, hello+` + "`+t.Name()+fmt.Sprint(time.Now().UnixNano())+`"[:0]`, 1))
		prog, err := b.Race(ctx, module1(t, mod), mod)
		require.NoError(t, err, "race build")
		assert.Equal(t, strings.Trim(hello, `"`), run(t, prog))
	}
	run := b.raceGoCache()
	shared, err := filepath.EvalSymlinks(b.goCache())
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(run, shared+string(filepath.Separator)+"run-"), "the run's go cache %s", run)
	// What the run wrote is in files of its own (one link); what it found
	// is linked from the cache's.
	require.NoError(t, filepath.WalkDir(run, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err == nil && info.Sys().(*syscall.Stat_t).Nlink == 1 {
			rel, _ := filepath.Rel(run, p)
			made = append(made, rel)
		}
		return err
	}))
	require.NotEmpty(t, made, "the race builds wrote nothing")
	require.NoError(t, b.Close())
	assert.NoDirExists(t, run, "the run's go cache outlives the run")
	for _, rel := range made {
		assert.NoFileExists(t, filepath.Join(shared, rel), "the cache's go-build got an entry of the run")
	}
	t.Logf("%d entries of the run's own, none in the cache's go-build", len(made))
}

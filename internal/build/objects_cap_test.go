package build

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
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
// size bytes: a correct solution can make a large program.
func bigModule(i, size int) map[string][]byte {
	return tiny(fmt.Sprintf("%q[:%d]", fmt.Sprint(i)+strings.Repeat("x", size), 2))
}

// TestObjectsCapHoldsAtEveryMoment builds 20 distinct programs of some
// megabytes each, two at a time as kurs grade -j 2 does, while a sampler
// measures objects/ every millisecond: it never holds more than the cap
// plus one program. A program over maxObject is not kept at all.
func TestObjectsCapHoldsAtEveryMoment(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 20 programs")
	}
	b := newBuilder(t)
	const limit = 12 << 20
	b.objectsCap = limit
	ctx := context.Background()
	k, err := b.Kit(ctx, []*course.Exercise{tinyExercise}, func() (map[string][]byte, error) { return tiny(`"hi"`), nil })
	require.NoError(t, err)
	dir := filepath.Join(b.Dir(), "objects")

	var most, samples, biggest atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			n := objectsSize(dir)
			samples.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
		}
	}()
	var wg sync.WaitGroup
	work := make(chan int)
	for range 2 {
		wg.Go(func() {
			for i := range work {
				prog, err := b.Direct(ctx, k, module1(t, bigModule(i, 3<<20)), []string{"x"})
				if !assert.NoError(t, err) {
					continue
				}
				assert.Equal(t, (fmt.Sprint(i) + "x")[:2], run(t, prog))
				if info, err := os.Stat(prog); err == nil {
					for m := biggest.Load(); info.Size() > m && !biggest.CompareAndSwap(m, info.Size()); m = biggest.Load() {
					}
				}
			}
		})
	}
	for i := range 20 {
		work <- i
	}
	close(work)
	wg.Wait()
	close(stop)
	<-sampled
	t.Logf("objects/ at most %.1f MiB in %d samples; cap %d MiB, largest program %.1f MiB",
		float64(most.Load())/(1<<20), samples.Load(), limit>>20, float64(biggest.Load())/(1<<20))
	require.Greater(t, biggest.Load(), int64(3<<20), "the programs are big")
	require.Greater(t, samples.Load(), int64(20))
	assert.LessOrEqual(t, most.Load(), limit+biggest.Load(), "never more than the cap and one program")
	assert.Greater(t, most.Load(), int64(limit/2), "the store was used")

	// A program over maxObject is built, and not kept.
	prog, err := b.Direct(ctx, k, module1(t, bigModule(99, maxObject)), []string{"x"})
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

// kurs grade keeps objects for its run alone: a second submission with
// the same files reuses them, the cache gets none, and they are gone
// after Close.
func TestObjectsForRunLeaveNothing(t *testing.T) {
	b := newBuilder(t)
	require.NoError(t, b.KeepObjectsForRun())
	ctx := context.Background()
	k, err := b.Kit(ctx, []*course.Exercise{tinyExercise}, func() (map[string][]byte, error) { return tiny(`"hi"`), nil })
	require.NoError(t, err)
	for _, hello := range []string{`"one"`, `"two"`, `"one"`} {
		prog, err := b.Direct(ctx, k, module1(t, tiny(hello)), []string{"x"})
		require.NoError(t, err)
		assert.Equal(t, strings.Trim(hello, `"`), run(t, prog))
	}
	assert.Equal(t, 2, b.Stats().Links, "the third submission, like the first, is linked once")
	run := *b.runObjects.Load()
	assert.NotZero(t, objectsSize(run))
	assert.Zero(t, objectsSize(filepath.Join(b.Dir(), "objects")), "nothing in the cache")
	require.NoError(t, b.Close())
	assert.NoDirExists(t, run, "gone with the run")
}

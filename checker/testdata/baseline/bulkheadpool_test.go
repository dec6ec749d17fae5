// The baseline that a check of the bulkhead pool is measured against
// (bench/check), as go test -race runs it: the seed's trace, and the three
// stress tests the checker runs, each with 16 goroutines on at least 8
// threads until the test has used 250 ms of processor time or a second
// has passed, with the same invariants. It lives in testdata, so the go
// command never builds it here.
package bulkheadpool

import (
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func TestSeedTrace(t *testing.T) {
	p := New(2)
	if !p.TryAcquire() || !p.TryAcquire() || p.TryAcquire() || p.InUse() != 2 {
		t.Fatal("wrong")
	}
	p.Release()
	if p.InUse() != 1 || !p.TryAcquire() {
		t.Fatal("wrong")
	}
}

// cpu returns the processor time the process has used.
func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func stress(t *testing.T, size int) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(8, runtime.NumCPU())))
	p := New(size)
	var inFlight atomic.Int64
	var stop atomic.Bool
	var broken atomic.Bool
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for !stop.Load() {
				k := 0
				for k <= size && p.TryAcquire() {
					k++
					if inFlight.Add(1) > int64(size) {
						broken.Store(true)
					}
				}
				if k == 0 {
					runtime.Gosched()
					continue
				}
				for range 3 {
					if u := p.InUse(); u > size || u < 1 {
						broken.Store(true)
					}
				}
				for range k {
					inFlight.Add(-1)
					p.Release()
				}
			}
		})
	}
	start, used := time.Now(), cpu()
	for cpu()-used < 250*time.Millisecond && time.Since(start) < time.Second && !broken.Load() {
		time.Sleep(5 * time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	if broken.Load() || p.InUse() != 0 {
		t.Fatal("an invariant broke")
	}
}

func TestStressSize1(t *testing.T) { stress(t, 1) }
func TestStressSize2(t *testing.T) { stress(t, 2) }
func TestStressSize3(t *testing.T) { stress(t, 3) }

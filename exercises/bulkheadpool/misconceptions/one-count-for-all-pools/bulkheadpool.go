// Package bulkheadpool holds the misconception "one-count-for-all-pools" of the exercise
// "bulkheadpool": the reference solution with one mistake.
package bulkheadpool

import "sync"

// Pool hands out at most size slots at a time. It never blocks: a caller
// that gets no slot is told so at once and can fail fast or degrade.
//
// A Pool is safe for concurrent use.
type Pool struct {
	size int
}

// The count of slots in use, for the pool.
var (
	mu    sync.Mutex
	inUse int
)

// New returns an empty pool with size slots; a size below 0 counts as 0.
func New(size int) *Pool { return &Pool{size: max(size, 0)} }

// TryAcquire takes a slot and reports true if one is free, else it reports
// false and takes nothing.
func (p *Pool) TryAcquire() bool {
	mu.Lock()
	defer mu.Unlock()
	if inUse >= p.size {
		return false
	}
	inUse++
	return true
}

// Release gives a slot back. With no slot in use it does nothing, so a
// stray Release cannot make room for more callers than size.
func (p *Pool) Release() {
	mu.Lock()
	defer mu.Unlock()
	if inUse > 0 {
		inUse--
	}
}

// InUse returns how many slots are taken.
func (p *Pool) InUse() int {
	mu.Lock()
	defer mu.Unlock()
	return inUse
}

// Package bulkheadpool holds the misconception "one-slot-too-many" of the exercise
// "bulkheadpool": the reference solution with one mistake.
package bulkheadpool

import "sync"

// Pool hands out at most size slots at a time. It never blocks: a caller
// that gets no slot is told so at once and can fail fast or degrade.
//
// A Pool is safe for concurrent use.
type Pool struct {
	mu    sync.Mutex
	size  int
	inUse int
}

// New returns an empty pool with size slots; a size below 0 counts as 0.
func New(size int) *Pool { return &Pool{size: max(size, 0)} }

// TryAcquire takes a slot and reports true if one is free, else it reports
// false and takes nothing.
func (p *Pool) TryAcquire() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inUse > p.size {
		return false
	}
	p.inUse++
	return true
}

// Release gives a slot back. With no slot in use it does nothing, so a
// stray Release cannot make room for more callers than size.
func (p *Pool) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inUse > 0 {
		p.inUse--
	}
}

// InUse returns how many slots are taken.
func (p *Pool) InUse() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inUse
}

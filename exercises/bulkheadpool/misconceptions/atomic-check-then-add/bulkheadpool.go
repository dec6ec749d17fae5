// Package bulkheadpool holds the misconception "atomic-check-then-add" of
// the exercise "bulkheadpool": an atomic counter, checked and then added
// to in two steps.
package bulkheadpool

import "sync/atomic"

// Pool hands out at most size slots at a time.
type Pool struct {
	size  int64
	inUse atomic.Int64
}

// New returns an empty pool with size slots; a size below 0 counts as 0.
func New(size int) *Pool { return &Pool{size: int64(max(size, 0))} }

// TryAcquire takes a slot and reports true if one is free. The mistake:
// the Load and the Add are each atomic, but another goroutine can take the
// last slot between them.
func (p *Pool) TryAcquire() bool {
	if p.inUse.Load() >= p.size {
		return false
	}
	p.inUse.Add(1)
	return true
}

// Release gives a slot back; with none in use it does nothing.
func (p *Pool) Release() {
	if p.inUse.Load() > 0 {
		p.inUse.Add(-1)
	}
}

// InUse returns how many slots are taken.
func (p *Pool) InUse() int { return int(p.inUse.Load()) }

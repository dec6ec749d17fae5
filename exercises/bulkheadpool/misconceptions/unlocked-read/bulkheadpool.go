// Package bulkheadpool holds the misconception "unlocked-read" of the
// exercise "bulkheadpool": the reference solution whose InUse reads the
// count without the lock.
package bulkheadpool

import "sync"

// Pool hands out at most size slots at a time.
type Pool struct {
	mu    sync.Mutex
	size  int
	inUse int
}

// New returns an empty pool with size slots; a size below 0 counts as 0.
func New(size int) *Pool { return &Pool{size: max(size, 0)} }

// TryAcquire takes a slot and reports true if one is free.
func (p *Pool) TryAcquire() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inUse >= p.size {
		return false
	}
	p.inUse++
	return true
}

// Release gives a slot back; with none in use it does nothing.
func (p *Pool) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inUse > 0 {
		p.inUse--
	}
}

// InUse returns how many slots are taken. The mistake: it only reads, so
// it takes no lock, while TryAcquire and Release write the count under
// theirs.
func (p *Pool) InUse() int { return p.inUse }

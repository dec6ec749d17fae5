// Package bulkheadpool holds the misconception "unlocked-release" of the
// exercise "bulkheadpool": the reference solution whose Release counts down
// without the lock.
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

// Release gives a slot back; with none in use it does nothing. The
// mistake: it only gives back what TryAcquire handed out, so it takes no
// lock, while TryAcquire and InUse use the count under theirs.
func (p *Pool) Release() {
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

package bulkheadpool

import "sync/atomic"

// Pool uses atomics, but checks and then acts in two steps: between the
// Load and the Add another goroutine may take the last slot.
type Pool struct {
	size  int64
	inUse atomic.Int64
}

func New(size int) *Pool {
	return &Pool{size: int64(max(size, 0))}
}

func (p *Pool) TryAcquire() bool {
	if p.inUse.Load() >= p.size {
		return false
	}
	p.inUse.Add(1)
	return true
}

func (p *Pool) Release() {
	if p.inUse.Load() > 0 {
		p.inUse.Add(-1)
	}
}

func (p *Pool) InUse() int { return int(p.inUse.Load()) }

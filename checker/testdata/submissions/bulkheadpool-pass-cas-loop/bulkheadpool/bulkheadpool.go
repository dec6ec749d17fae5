package bulkheadpool

import "sync/atomic"

// Pool takes and gives back slots with compare-and-swap: the count
// changes only if nobody changed it since it was read.
type Pool struct {
	size  int32
	inUse atomic.Int32
}

func New(size int) *Pool {
	return &Pool{size: int32(max(size, 0))}
}

func (p *Pool) TryAcquire() bool {
	for {
		n := p.inUse.Load()
		if n >= p.size {
			return false
		}
		if p.inUse.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func (p *Pool) Release() {
	for n := p.inUse.Load(); n > 0; n = p.inUse.Load() {
		if p.inUse.CompareAndSwap(n, n-1) {
			return
		}
	}
}

func (p *Pool) InUse() int { return int(p.inUse.Load()) }

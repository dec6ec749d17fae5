package bulkheadpool

import "sync/atomic"

type Pool struct {
	size  int64
	inUse atomic.Int64
}

func New(size int) *Pool { return &Pool{size: int64(max(size, 0))} }

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
	for {
		n := p.inUse.Load()
		if n == 0 || p.inUse.CompareAndSwap(n, n-1) {
			return
		}
	}
}

func (p *Pool) InUse() int { return int(p.inUse.Load()) }

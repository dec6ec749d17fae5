package bulkheadpool

import "sync/atomic"

type Pool struct {
	Size  int64
	inUse atomic.Int64
}

func New(size int) *Pool {
	p := &Pool{Size: int64(size)}
	if p.Size < 0 {
		p.Size = 0
	}
	return p
}

// TryAcquire takes a slot with compare-and-swap, so that two goroutines
// cannot both take the last one.
func (p *Pool) TryAcquire() bool {
	for {
		n := p.inUse.Load()
		if n >= p.Size {
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

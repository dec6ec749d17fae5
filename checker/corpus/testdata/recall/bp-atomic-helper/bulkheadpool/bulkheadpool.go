package bulkheadpool

import "sync/atomic"

type Pool struct {
	limit int64
	used  atomic.Int64
}

func New(size int) *Pool { return &Pool{limit: int64(max(size, 0))} }

func (p *Pool) full() bool { return p.used.Load() >= p.limit }

func (p *Pool) TryAcquire() bool {
	if p.full() {
		return false
	}
	p.used.Add(1)
	return true
}

func (p *Pool) Release() {
	for {
		n := p.used.Load()
		if n == 0 || p.used.CompareAndSwap(n, n-1) {
			return
		}
	}
}

func (p *Pool) InUse() int { return int(p.used.Load()) }

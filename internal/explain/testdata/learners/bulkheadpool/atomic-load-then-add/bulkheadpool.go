package bulkheadpool

import "sync/atomic"

type Pool struct {
	max  int32
	busy int32
}

func New(size int) *Pool {
	return &Pool{max: int32(max(0, size))}
}

func (p *Pool) TryAcquire() bool {
	cur := atomic.LoadInt32(&p.busy)
	if cur < p.max {
		atomic.AddInt32(&p.busy, 1)
		return true
	}
	return false
}

func (p *Pool) Release() {
	if atomic.LoadInt32(&p.busy) > 0 {
		atomic.AddInt32(&p.busy, -1)
	}
}

func (p *Pool) InUse() int {
	return int(atomic.LoadInt32(&p.busy))
}

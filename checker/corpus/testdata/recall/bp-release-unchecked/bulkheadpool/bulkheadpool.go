package bulkheadpool

import "sync"

type Pool struct {
	sync.Mutex
	n, busy int
}

func New(size int) *Pool { return &Pool{n: max(size, 0)} }

func (p *Pool) TryAcquire() bool {
	p.Lock()
	defer p.Unlock()
	if p.busy == p.n {
		return false
	}
	p.busy++
	return true
}

func (p *Pool) Release() {
	p.Lock()
	p.busy--
	p.Unlock()
}

func (p *Pool) InUse() int {
	p.Lock()
	defer p.Unlock()
	return p.busy
}

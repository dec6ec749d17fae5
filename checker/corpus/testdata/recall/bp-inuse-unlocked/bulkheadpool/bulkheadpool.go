package bulkheadpool

import "sync"

type Pool struct {
	lock  sync.Mutex
	limit int
	taken int
}

func New(size int) *Pool {
	p := &Pool{}
	if size > 0 {
		p.limit = size
	}
	return p
}

func (p *Pool) TryAcquire() (ok bool) {
	p.lock.Lock()
	if p.taken < p.limit {
		p.taken++
		ok = true
	}
	p.lock.Unlock()
	return ok
}

func (p *Pool) Release() {
	p.lock.Lock()
	defer p.lock.Unlock()
	if p.taken == 0 {
		return
	}
	p.taken--
}

// InUse only looks, so it needs no lock.
func (p *Pool) InUse() int { return p.taken }

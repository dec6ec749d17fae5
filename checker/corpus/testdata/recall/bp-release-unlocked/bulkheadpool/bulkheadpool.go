package bulkheadpool

import "sync"

type Pool struct {
	guard sync.Mutex
	slots int
	busy  int
}

func New(size int) *Pool {
	if size < 0 {
		return &Pool{}
	}
	return &Pool{slots: size}
}

func (p *Pool) TryAcquire() bool {
	p.guard.Lock()
	defer p.guard.Unlock()
	if p.busy == p.slots {
		return false
	}
	p.busy++
	return true
}

// Release is only called by someone who holds a slot, so nobody else can
// be giving that slot back: no lock needed.
func (p *Pool) Release() {
	switch {
	case p.busy > 0:
		p.busy--
	}
}

func (p *Pool) InUse() int {
	p.guard.Lock()
	n := p.busy
	p.guard.Unlock()
	return n
}

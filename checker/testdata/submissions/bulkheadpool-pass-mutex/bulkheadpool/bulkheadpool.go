package bulkheadpool

import "sync"

// Pool guards its count with a mutex that every method holds.
type Pool struct {
	mu     sync.Mutex
	plätze int
	belegt int
}

func New(size int) *Pool { return &Pool{plätze: max(size, 0)} }

func (p *Pool) TryAcquire() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.belegt == p.plätze {
		return false
	}
	p.belegt++
	return true
}

func (p *Pool) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.belegt > 0 {
		p.belegt--
	}
}

func (p *Pool) InUse() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.belegt
}

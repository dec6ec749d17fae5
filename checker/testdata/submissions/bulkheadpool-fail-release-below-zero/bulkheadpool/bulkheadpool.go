package bulkheadpool

import "sync"

type Pool struct {
	mu    sync.Mutex
	size  int
	inUse int
}

func New(size int) *Pool { return &Pool{size: max(size, 0)} }

func (p *Pool) TryAcquire() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inUse < p.size {
		p.inUse++
		return true
	}
	return false
}

func (p *Pool) Release() {
	p.mu.Lock()
	p.inUse--
	p.mu.Unlock()
}

func (p *Pool) InUse() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inUse
}

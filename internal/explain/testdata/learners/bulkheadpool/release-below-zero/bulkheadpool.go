package bulkheadpool

import "sync"

type Pool struct {
	mu   sync.Mutex
	size int
	used int
}

func New(size int) *Pool {
	if size < 0 {
		size = 0
	}
	return &Pool{size: size}
}

func (p *Pool) TryAcquire() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.used < p.size {
		p.used++
		return true
	}
	return false
}

func (p *Pool) Release() {
	p.mu.Lock()
	p.used--
	p.mu.Unlock()
}

func (p *Pool) InUse() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.used
}

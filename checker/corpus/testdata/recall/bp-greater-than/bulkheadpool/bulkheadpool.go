package bulkheadpool

import "sync"

type Pool struct {
	mu       sync.Mutex
	capacity int
	active   int
}

func New(size int) *Pool {
	if size < 0 {
		size = 0
	}
	return &Pool{capacity: size}
}

func (p *Pool) TryAcquire() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.active > p.capacity {
		return false
	}
	p.active++
	return true
}

func (p *Pool) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.active > 0 {
		p.active--
	}
}

func (p *Pool) InUse() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.active
}

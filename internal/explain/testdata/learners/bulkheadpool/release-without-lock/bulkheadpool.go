package bulkheadpool

import "sync"

type Pool struct {
	mu    sync.Mutex
	size  int
	inUse int
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
	if p.inUse >= p.size {
		return false
	}
	p.inUse++
	return true
}

// Release forgets the lock.
func (p *Pool) Release() {
	if p.inUse > 0 {
		p.inUse--
	}
}

func (p *Pool) InUse() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inUse
}

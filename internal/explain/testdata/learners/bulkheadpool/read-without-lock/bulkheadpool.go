package bulkheadpool

import "sync"

// Pool is a bulkhead: a fixed number of slots, counted under a lock,
// except where the count is only read.
type Pool struct {
	sync.Mutex
	capacity int
	used     int
}

func New(size int) *Pool {
	if size < 0 {
		size = 0
	}
	return &Pool{capacity: size}
}

func (p *Pool) TryAcquire() bool {
	p.Lock()
	defer p.Unlock()
	if p.used == p.capacity {
		return false
	}
	p.used = p.used + 1
	return true
}

func (p *Pool) Release() {
	p.Lock()
	if p.used != 0 {
		p.used = p.used - 1
	}
	p.Unlock()
}

// InUse only reads, so it does without the lock.
func (p *Pool) InUse() int {
	return p.used
}

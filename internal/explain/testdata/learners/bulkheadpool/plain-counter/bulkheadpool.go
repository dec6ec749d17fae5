package bulkheadpool

// Pool is a bulkhead: a fixed number of slots.
type Pool struct {
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
	if p.used == p.capacity {
		return false
	}
	p.used = p.used + 1
	return true
}

func (p *Pool) Release() {
	if p.used == 0 {
		return
	}
	p.used = p.used - 1
}

func (p *Pool) InUse() int {
	return p.used
}

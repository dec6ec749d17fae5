package bulkheadpool

type Pool struct {
	slots, taken int
}

func New(size int) *Pool {
	if size < 0 {
		size = 0
	}
	return &Pool{slots: size}
}

func (p *Pool) TryAcquire() bool {
	switch {
	case p.taken < p.slots:
		p.taken++
		return true
	default:
		return false
	}
}

func (p *Pool) Release() {
	if p.taken > 0 {
		p.taken--
	}
}

func (p *Pool) InUse() int { return p.taken }

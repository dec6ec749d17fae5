package bulkheadpool

// Pool counts its slots in a plain int, with no lock: right for one
// goroutine, wrong for several.
type Pool struct {
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
	if p.inUse >= p.size {
		return false
	}
	p.inUse++
	return true
}

func (p *Pool) Release() {
	if p.inUse > 0 {
		p.inUse--
	}
}

func (p *Pool) InUse() int { return p.inUse }

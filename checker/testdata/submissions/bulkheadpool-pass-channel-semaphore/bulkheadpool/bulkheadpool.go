package bulkheadpool

// Pool is a semaphore: a token in the buffered channel is a slot in use.
type Pool struct {
	tokens chan struct{}
}

func New(size int) *Pool {
	if size < 0 {
		size = 0
	}
	return &Pool{tokens: make(chan struct{}, size)}
}

func (p *Pool) TryAcquire() bool {
	select {
	case p.tokens <- struct{}{}:
		return true
	default:
		return false
	}
}

func (p *Pool) Release() {
	select {
	case <-p.tokens:
	default:
	}
}

func (p *Pool) InUse() int { return len(p.tokens) }

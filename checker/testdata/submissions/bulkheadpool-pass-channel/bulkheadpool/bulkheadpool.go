// Package bulkheadpool keeps its slots in a buffered channel: a token in the
// channel is a slot in use.
package bulkheadpool

type Pool struct {
	slots chan struct{}
}

func New(size int) *Pool {
	return &Pool{slots: make(chan struct{}, max(0, size))}
}

func (p *Pool) TryAcquire() bool {
	select {
	case p.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

func (p *Pool) Release() {
	select {
	case <-p.slots:
	default:
	}
}

func (p *Pool) InUse() int { return len(p.slots) }

// Package bulkheadpool holds the misconception "channel-size-unchecked" of
// the exercise "bulkheadpool": a pool built on a buffered channel, as the
// task allows, with one mistake.
package bulkheadpool

// Pool hands out at most size slots at a time. Each slot taken is one
// value in the channel's buffer.
type Pool struct {
	slots chan struct{}
}

// New returns an empty pool with size slots. The mistake: size goes to
// make unchecked, and make panics on a negative buffer size.
func New(size int) *Pool {
	return &Pool{slots: make(chan struct{}, size)}
}

// TryAcquire takes a free slot and reports whether it got one.
func (p *Pool) TryAcquire() bool {
	select {
	case p.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// Release gives back a slot in use; with none in use it does nothing.
func (p *Pool) Release() {
	select {
	case <-p.slots:
	default:
	}
}

// InUse returns how many slots are taken right now.
func (p *Pool) InUse() int { return len(p.slots) }

// Package bulkheadpool holds the misconception "no-lock" of the exercise
// "bulkheadpool": the reference solution without its lock.
package bulkheadpool

// Pool hands out at most size slots at a time. The mistake: nothing
// guards inUse, so two goroutines can both see a free slot and both take
// it.
type Pool struct {
	size  int
	inUse int
}

// New returns an empty pool with size slots; a size below 0 counts as 0.
func New(size int) *Pool { return &Pool{size: max(size, 0)} }

// TryAcquire takes a slot and reports true if one is free.
func (p *Pool) TryAcquire() bool {
	if p.inUse >= p.size {
		return false
	}
	p.inUse++
	return true
}

// Release gives a slot back; with none in use it does nothing.
func (p *Pool) Release() {
	if p.inUse > 0 {
		p.inUse--
	}
}

// InUse returns how many slots are taken.
func (p *Pool) InUse() int { return p.inUse }

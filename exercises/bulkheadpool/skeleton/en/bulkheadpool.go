// Package bulkheadpool is exercise 2 of the lesson "Fault tolerance in
// practice": a bulkhead, a pool with a fixed number of slots for the calls
// to one dependency.
//
// Whoever wants a slot asks with TryAcquire. If none is free, false comes
// back at once: the pool never waits. Whoever is done gives the slot back
// with Release. When every dependency gets its own pool, a slow service can
// only take its own slots, never another's.
//
// Check your solution with
//
//	kurs check bulkheadpool
//
// and get the next hint with
//
//	kurs hint bulkheadpool
package bulkheadpool

// Pool hands out at most size slots at a time. It never blocks. Several
// goroutines may use it at the same time.
type Pool struct {
	// TODO: store the size and the slots in use (and guard them against
	// concurrent access).
}

// New returns an empty pool with size slots; a size below 0 counts as 0.
func New(size int) *Pool {
	// TODO: store the size.
	return &Pool{}
}

// TryAcquire takes a slot and reports true if one is free. Otherwise it
// reports false and takes nothing.
func (p *Pool) TryAcquire() bool {
	// TODO: for now the skeleton lets everyone in, as if there were no pool.
	return true
}

// Release gives a slot back. With no slot in use it does nothing.
func (p *Pool) Release() {
	// TODO: free a slot in use.
}

// InUse returns how many slots are taken.
func (p *Pool) InUse() int {
	// TODO: return the slots in use.
	return 0
}

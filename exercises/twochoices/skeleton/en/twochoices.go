// Package twochoices is exercise 2 of the lesson "Load balancing": the
// power of two choices, with the random draw left to the caller.
//
// The caller draws two different backends at random and passes them to
// Pick; the balancer sends the connection to the one that is less busy, as
// far as it knows: it counts only its own connections.
//
// Check your solution with
//
//	kurs check twochoices
//
// and get the next hint with
//
//	kurs hint twochoices
package twochoices

// Balancer sends each new connection to the less busy of two backends drawn
// at random.
type Balancer struct {
	// TODO: add the state: the active connections per backend.
}

// New returns a balancer for the backends 0 to n-1, none of them busy.
func New(n int) *Balancer {
	// TODO: make n counters.
	return &Balancer{}
}

// Pick returns whichever of the backends a and b has fewer active
// connections, a on a tie, and counts a new connection there. The caller
// draws a and b at random; they differ unless there is only one backend.
func (lb *Balancer) Pick(a, b int) int {
	// TODO: compare the two, count the connection on the chosen one.
	return 0
}

// Done reports that a connection to backend i has ended. It is only
// called for a backend with an active connection.
func (lb *Balancer) Done(i int) {
	// TODO: one connection fewer on backend i.
}

// Active returns the number of active connections per backend, indexed by
// backend.
func (lb *Balancer) Active() []int {
	// TODO: return the counters (best as a copy).
	return nil
}

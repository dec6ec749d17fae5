// Package leastconn is exercise 1 of the lesson "Load balancing": a
// least-connections balancer that counts its own connections.
//
// The balancer knows nothing about the backends but what it did itself: it
// counts a connection when Pick sends one to a backend and forgets it when
// Done reports it finished.
//
// Check your solution with
//
//	kurs check leastconn
//
// and get the next hint with
//
//	kurs hint leastconn
package leastconn

// Balancer sends each new connection to the backend with the fewest active
// connections, as far as it knows them.
type Balancer struct {
	// TODO: add the state: the active connections per backend and the
	// backend of the previous Pick.
}

// New returns a balancer for the backends 0 to n-1, none of them busy.
func New(n int) *Balancer {
	// TODO: make n counters and remember that there was no Pick yet.
	return &Balancer{}
}

// Pick returns the backend with the fewest active connections and counts a
// new connection there.
//
// If several backends have the fewest, it takes the first of them after the
// backend of the previous Pick, going round (after n-1 comes 0); the first
// Pick starts looking at backend 0.
func (b *Balancer) Pick() int {
	// TODO: find the backend, count the connection, remember the pick.
	return 0
}

// Done reports that a connection to backend i has ended. It is only
// called for a backend with an active connection.
func (b *Balancer) Done(i int) {
	// TODO: one connection fewer on backend i.
}

// Active returns the number of active connections per backend, indexed by
// backend.
func (b *Balancer) Active() []int {
	// TODO: return the counters (best as a copy).
	return nil
}

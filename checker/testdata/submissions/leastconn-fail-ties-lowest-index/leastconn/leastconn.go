// Package leastconn sends each connection to the least busy backend.
package leastconn

// Balancer counts its own connections per backend.
type Balancer struct {
	active []int
}

// New returns a balancer for n idle backends.
func New(n int) *Balancer { return &Balancer{active: make([]int, n)} }

// Pick returns the backend with the fewest active connections.
func (b *Balancer) Pick() int {
	best := 0
	for i, a := range b.active {
		if a < b.active[best] {
			best = i
		}
	}
	b.active[best]++
	return best
}

// Done ends a connection to backend i.
func (b *Balancer) Done(i int) { b.active[i]-- }

// Active returns the counters.
func (b *Balancer) Active() []int { return append([]int(nil), b.active...) }

package leastconn

import (
	"slices"
	"sync"
)

// Balancer is safe for use by several goroutines.
type Balancer struct {
	mu     sync.Mutex
	active []int
	next   int // where the next search starts
}

// New returns a balancer for n idle backends.
func New(n int) *Balancer { return &Balancer{active: make([]int, n)} }

// order returns the backends in search order, starting at b.next.
func (b *Balancer) order() []int {
	n := len(b.active)
	out := make([]int, 0, n)
	for k := range n {
		out = append(out, (b.next+k)%n)
	}
	return out
}

// Pick returns the first backend in search order with the fewest connections.
func (b *Balancer) Pick() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	var best int
	for k, i := range b.order() {
		if k == 0 || b.active[i] < b.active[best] {
			best = i
		}
	}
	b.active[best]++
	b.next = (best + 1) % len(b.active)
	return best
}

// Done ends a connection to backend i.
func (b *Balancer) Done(i int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.active[i]--
}

// Active returns a copy of the counters.
func (b *Balancer) Active() []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.active)
}

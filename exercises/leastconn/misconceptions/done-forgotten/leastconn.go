// Package leastconn holds the misconception "done-forgotten" of the exercise
// "leastconn": the reference solution with one mistake.
package leastconn

// Balancer sends each new connection to the backend with the fewest active
// connections, as far as it knows them: it counts only the connections it
// opened itself and that were reported back as done.
type Balancer struct {
	active []int
	last   int // backend of the previous Pick, -1 before the first
}

// New returns a balancer for the backends 0 to n-1, none of them busy.
func New(n int) *Balancer {
	return &Balancer{active: make([]int, n), last: -1}
}

// Pick returns the backend with the fewest active connections and counts a
// new connection there. Of several backends with the fewest, it takes the
// first after the previous pick, going round, so that ties are shared out
// in turn rather than always landing on backend 0.
func (b *Balancer) Pick() int {
	n := len(b.active)
	best := -1
	for k := 1; k <= n; k++ {
		i := (b.last + k) % n
		if best < 0 || b.active[i] < b.active[best] {
			best = i
		}
	}
	b.active[best]++
	b.last = best
	return best
}

// Done reports that a connection to backend i has ended.
func (b *Balancer) Done(i int) {}

// Active returns the number of active connections per backend.
func (b *Balancer) Active() []int { return append([]int(nil), b.active...) }

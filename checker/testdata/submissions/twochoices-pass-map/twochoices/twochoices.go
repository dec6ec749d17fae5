// Package twochoices implements the power of two choices.
package twochoices

// Balancer keeps the active connections per backend in a map.
type Balancer struct {
	n     int
	conns map[int]int
}

// New returns a balancer for n backends.
func New(n int) *Balancer { return &Balancer{n: n, conns: map[int]int{}} }

// Pick takes b only if it has strictly fewer connections than a.
func (lb *Balancer) Pick(a, b int) int {
	chosen := a
	if lb.conns[b] < lb.conns[a] {
		chosen = b
	}
	lb.conns[chosen]++
	return chosen
}

// Done removes one connection from backend i.
func (lb *Balancer) Done(i int) {
	lb.conns[i]--
	if lb.conns[i] == 0 {
		delete(lb.conns, i)
	}
}

// Active returns the counters as a slice, one per backend.
func (lb *Balancer) Active() []int {
	out := make([]int, lb.n)
	for i, c := range lb.conns {
		out[i] = c
	}
	return out
}

package leastconn

// Balancer is a least-connections balancer.
type Balancer struct {
	conns []int
	prev  int
}

func New(n int) *Balancer { return &Balancer{conns: make([]int, n), prev: n - 1} }

func (b *Balancer) Pick() int {
	n := len(b.conns)
	best := (b.prev + 1) % n
	for k := 1; k <= n; k++ {
		i := (b.prev + k) % n
		if b.conns[i] <= b.conns[best] {
			best = i
		}
	}
	b.conns[best]++
	b.prev = best
	return best
}

func (b *Balancer) Done(i int) { b.conns[i]-- }

func (b *Balancer) Active() []int {
	out := make([]int, len(b.conns))
	copy(out, b.conns)
	return out
}

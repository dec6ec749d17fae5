package leastconn

type Balancer struct {
	active []int
	last   int
}

func New(n int) *Balancer { return &Balancer{active: make([]int, n), last: -1} }

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

// Done marks backend i as free again.
func (b *Balancer) Done(i int) { b.active[i] = 0 }

func (b *Balancer) Active() []int { return append([]int(nil), b.active...) }

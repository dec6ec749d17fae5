package leastconn

type Balancer struct {
	n      int
	active []int
	last   int
}

func New(n int) *Balancer { return &Balancer{n: n, last: -1} }

func (b *Balancer) Pick() int {
	if b.active == nil {
		b.active = make([]int, b.n)
	}
	best := -1
	for k := 1; k <= b.n; k++ {
		i := (b.last + k) % b.n
		if best < 0 || b.active[i] < b.active[best] {
			best = i
		}
	}
	b.active[best]++
	b.last = best
	return best
}

func (b *Balancer) Done(i int) { b.active[i]-- }

func (b *Balancer) Active() []int { return b.active }

package leastconn

type Balancer struct {
	conns []int
	prev  int
}

func New(n int) *Balancer { return &Balancer{conns: make([]int, n), prev: -1} }

func (b *Balancer) Pick() int {
	n := len(b.conns)
	best := -1
	for k := 1; k <= n; k++ {
		i := (b.prev + k) % n
		if best == -1 || b.conns[i] < b.conns[best] {
			best = i
		}
	}
	b.prev = best
	return best
}

func (b *Balancer) Done(i int) {
	b.conns[i]--
}

func (b *Balancer) Active() []int { return append([]int{}, b.conns...) }

package leastconn

type Balancer struct {
	conns []int
	prev  int
}

func New(n int) *Balancer { return &Balancer{conns: make([]int, n), prev: -1} }

func (b *Balancer) Pick() int {
	best := 0
	for i := range b.conns {
		if b.conns[i] < b.conns[best] {
			best = i
		}
	}
	b.conns[best]++
	b.prev = best
	return best
}

func (b *Balancer) Done(i int) {
	b.conns[i]--
}

func (b *Balancer) Active() []int { return append([]int{}, b.conns...) }

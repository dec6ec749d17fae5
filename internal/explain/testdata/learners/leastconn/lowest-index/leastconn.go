package leastconn

type Balancer struct {
	conns []int
}

func New(n int) *Balancer { return &Balancer{conns: make([]int, n)} }

func (b *Balancer) Pick() int {
	best := 0
	for i, c := range b.conns {
		if c < b.conns[best] {
			best = i
		}
	}
	b.conns[best]++
	return best
}

func (b *Balancer) Done(i int) { b.conns[i]-- }

func (b *Balancer) Active() []int {
	out := make([]int, len(b.conns))
	copy(out, b.conns)
	return out
}

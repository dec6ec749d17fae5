package twochoices

type Balancer struct {
	active []int
}

func New(n int) *Balancer {
	return &Balancer{active: make([]int, n)}
}

func (lb *Balancer) Pick(a, b int) int {
	if lb.active[b] < lb.active[a] {
		lb.active[b]++
		return b
	}
	lb.active[a]++
	return a
}

// Done: the connection has ended, nothing to do.
func (lb *Balancer) Done(i int) {}

func (lb *Balancer) Active() []int {
	return append([]int(nil), lb.active...)
}

package twochoices

type Balancer struct{ active []int }

func New(n int) *Balancer { return &Balancer{active: make([]int, n)} }

func (lb *Balancer) Pick(a, b int) int {
	if lb.active[b] < lb.active[a] {
		return b
	}
	return a
}

func (lb *Balancer) Done(i int) {
	if lb.active[i] > 0 {
		lb.active[i]--
	}
}

func (lb *Balancer) Active() []int { return lb.active }

package twochoices

type Balancer struct {
	load []int
}

func New(n int) *Balancer { return &Balancer{load: make([]int, n)} }

func (lb *Balancer) Pick(a, b int) int {
	w := a
	if b < a {
		w = b
	}
	lb.load[w]++
	return w
}

func (lb *Balancer) Done(i int) {
	lb.load[i]--
}

func (lb *Balancer) Active() []int {
	out := make([]int, len(lb.load))
	copy(out, lb.load)
	return out
}

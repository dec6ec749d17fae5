package twochoices

type Balancer struct {
	load []int
}

func New(n int) *Balancer { return &Balancer{load: make([]int, n)} }

func (lb *Balancer) Pick(a, b int) int {
	w := a
	if lb.load[b] < lb.load[a] {
		w = b
	}
	lb.load[w]++
	return w
}

func (lb *Balancer) Done(i int) {
	_ = i
}

func (lb *Balancer) Active() []int {
	out := make([]int, len(lb.load))
	copy(out, lb.load)
	return out
}

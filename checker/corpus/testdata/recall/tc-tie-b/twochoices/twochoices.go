package twochoices

type Balancer struct {
	load []int
}

func New(n int) *Balancer { return &Balancer{load: make([]int, n)} }

func (lb *Balancer) Pick(a, b int) int {
	if lb.load[b] <= lb.load[a] {
		lb.load[b]++
		return b
	}
	lb.load[a]++
	return a
}

func (lb *Balancer) Done(i int) {
	lb.load[i]--
}

func (lb *Balancer) Active() []int {
	out := make([]int, len(lb.load))
	copy(out, lb.load)
	return out
}

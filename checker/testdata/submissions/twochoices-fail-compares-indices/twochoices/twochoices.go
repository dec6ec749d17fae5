package twochoices

type Balancer struct{ active []int }

func New(n int) *Balancer { return &Balancer{active: make([]int, n)} }

// Pick takes the smaller of the two.
func (lb *Balancer) Pick(a, b int) int {
	best := min(a, b)
	lb.active[best]++
	return best
}

func (lb *Balancer) Done(i int) { lb.active[i]-- }

func (lb *Balancer) Active() []int { return append([]int(nil), lb.active...) }

package twochoices

type Balancer struct{ active []int }

func New(n int) *Balancer { return &Balancer{active: make([]int, n)} }

func (lb *Balancer) Pick(a, b int) int {
	best := a
	switch {
	case lb.active[b] < lb.active[a]:
		best = b
	case lb.active[b] == lb.active[a] && b < a:
		best = b // "deterministic": the lower index wins a tie
	}
	lb.active[best]++
	return best
}

func (lb *Balancer) Done(i int) { lb.active[i]-- }

func (lb *Balancer) Active() []int { return append([]int(nil), lb.active...) }

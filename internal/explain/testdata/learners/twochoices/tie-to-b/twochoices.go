package twochoices

type Balancer struct{ load []int }

func New(n int) *Balancer { return &Balancer{load: make([]int, n)} }

func (lb *Balancer) Pick(a, b int) int {
	choice := b
	if lb.load[a] < lb.load[b] {
		choice = a
	}
	lb.load[choice]++
	return choice
}

func (lb *Balancer) Done(i int) { lb.load[i]-- }

func (lb *Balancer) Active() []int { return append([]int(nil), lb.load...) }

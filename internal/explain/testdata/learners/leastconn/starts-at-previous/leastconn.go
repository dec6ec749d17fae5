package leastconn

type Balancer struct {
	active []int
	prev   int
}

func New(n int) *Balancer {
	return &Balancer{active: make([]int, n)}
}

// Pick looks round from the previous pick and takes the first with the
// fewest connections.
func (b *Balancer) Pick() int {
	n := len(b.active)
	best := b.prev
	for k := 0; k < n; k++ {
		i := (b.prev + k) % n
		if b.active[i] < b.active[best] {
			best = i
		}
	}
	b.active[best]++
	b.prev = best
	return best
}

func (b *Balancer) Done(i int) { b.active[i]-- }

func (b *Balancer) Active() []int { return append([]int{}, b.active...) }

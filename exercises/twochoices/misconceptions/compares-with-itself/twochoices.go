// Package twochoices holds the misconception "compares-with-itself" of the exercise
// "twochoices": the reference solution with one mistake.
package twochoices

// Balancer sends each new connection to the less busy of two backends drawn
// at random, as far as it knows them: it counts only the connections it
// opened itself and that were reported back as done.
type Balancer struct {
	active []int
}

// New returns a balancer for the backends 0 to n-1, none of them busy.
func New(n int) *Balancer {
	return &Balancer{active: make([]int, n)}
}

// Pick returns whichever of the backends a and b has fewer active
// connections, a on a tie, and counts a new connection there. The caller
// draws a and b at random; the tie goes to a because a is as random as b,
// so no backend is favoured.
func (lb *Balancer) Pick(a, b int) int {
	best := a
	// The mistake: a is compared with itself.
	//lint:ignore SA4000 the comparison with itself is the mistake this code shows
	if lb.active[a] < lb.active[a] {
		best = b
	}
	lb.active[best]++
	return best
}

// Done reports that a connection to backend i has ended.
func (lb *Balancer) Done(i int) { lb.active[i]-- }

// Active returns the number of active connections per backend.
func (lb *Balancer) Active() []int { return append([]int(nil), lb.active...) }

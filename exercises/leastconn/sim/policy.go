package sim

import "math/rand/v2"

// LeastConn returns the least-connections rule as a Chooser: the backend
// with the fewest active requests. Ties are broken round robin, as nginx
// and HAProxy do: of the backends with the fewest, the first one after the
// previous pick, going round; the first pick looks from backend 0 on. The
// Chooser remembers its previous pick, so each balancer needs its own.
func LeastConn() Chooser {
	last := -1
	return func(active []int, _ *rand.Rand) int {
		start := (last + 1) % len(active)
		best := start
		for i := start + 1; i < len(active); i++ {
			if active[i] < active[best] {
				best = i
			}
		}
		for i := range start {
			if active[i] < active[best] {
				best = i
			}
		}
		last = best
		return best
	}
}

// LeastConnFirst is least connections with ties to the lowest index, the
// rule that looks obvious and is not what nginx and HAProxy do: whenever
// several backends are equally idle, backend 0 gets the request, and
// balancers that each count their own requests all make that same choice.
func LeastConnFirst(active []int, _ *rand.Rand) int {
	best := 0
	for i, a := range active {
		if a < active[best] {
			best = i
		}
	}
	return best
}

// TwoChoices is the power of two choices as a Chooser: of two different
// backends drawn with TwoDistinct, the one with fewer active requests,
// ties to the first drawn.
func TwoChoices(active []int, r *rand.Rand) int {
	a, b := TwoDistinct(r, len(active))
	if active[b] < active[a] {
		return b
	}
	return a
}

// RandomChoice picks a backend uniformly at random, ignoring the view.
func RandomChoice(active []int, r *rand.Rand) int { return r.IntN(len(active)) }

// TwoDistinct draws two different backends of n uniformly at random: the
// first from all n, the second from the n-1 others. With n = 1 both are 0.
func TwoDistinct(r *rand.Rand, n int) (a, b int) {
	a = r.IntN(n)
	if n == 1 {
		return 0, 0
	}
	b = r.IntN(n - 1)
	if b >= a {
		b++ // skip a, so that every other backend is equally likely
	}
	return a, b
}

// Counting is a Balancer that counts its own active requests per backend
// and lets a Chooser pick from those counts.
type Counting struct {
	choose Chooser
	active []int
}

// NewCounting returns a Counting balancer for n backends.
func NewCounting(n int, choose Chooser) *Counting {
	return &Counting{choose: choose, active: make([]int, n)}
}

// Pick chooses from the balancer's own counts and counts the request.
func (c *Counting) Pick(r *rand.Rand) int {
	i := c.choose(c.active, r)
	if i >= 0 && i < len(c.active) {
		c.active[i]++
	}
	return i
}

// Done counts the request as served.
func (c *Counting) Done(i int) { c.active[i]-- }

// random sends each request to a backend drawn uniformly at random.
type random struct{ n int }

// NewRandom returns a balancer that picks a backend uniformly at random.
func NewRandom(n int) Balancer { return random{n} }

func (b random) Pick(r *rand.Rand) int { return r.IntN(b.n) }
func (random) Done(int)                {}

// NewRoundRobin returns a balancer that sends requests to backends 0, 1,
// ..., n-1, 0, 1, ... in turn.
func NewRoundRobin(n int) Balancer { return NewWeighted(nil, n) }

// Weighted is smooth weighted round robin, the scheme nginx uses: each
// pick raises every backend's current value by its weight, takes the
// backend with the highest current value (ties to the lowest index) and
// lowers that one by the sum of the weights. Over a cycle each backend
// gets requests in proportion to its weight, spread out rather than in a
// burst.
type Weighted struct {
	weight, current []float64
	total           float64
}

// NewWeighted returns smooth weighted round robin over n backends with
// the given weights; nil means weight 1 for every backend, which is plain
// round robin.
func NewWeighted(weights []float64, n int) *Weighted {
	if weights == nil {
		weights = make([]float64, n)
		for i := range weights {
			weights[i] = 1
		}
	}
	w := &Weighted{weight: weights, current: make([]float64, len(weights))}
	for _, x := range weights {
		w.total += x
	}
	return w
}

// Pick returns the next backend of the weighted cycle.
func (w *Weighted) Pick(*rand.Rand) int {
	best := 0
	for i, x := range w.weight {
		w.current[i] += x
		if w.current[i] > w.current[best] {
			best = i
		}
	}
	w.current[best] -= w.total
	return best
}

// Done does nothing: round robin does not look at the backends.
func (w *Weighted) Done(int) {}

// LeastTime picks the backend where a new request would be done soonest
// by its estimate: (active requests + 1) times the mean service time it
// has measured on that backend, an exponentially weighted moving average
// of the durations reported to Served. Ties go to the lowest index.
type LeastTime struct {
	active []int
	avg    []float64
	alpha  float64
}

// NewLeastTime returns a LeastTime balancer for n backends that starts by
// assuming a mean service time of 1 everywhere and weighs each new
// measurement with alpha.
func NewLeastTime(n int, alpha float64) *LeastTime {
	lt := &LeastTime{active: make([]int, n), avg: make([]float64, n), alpha: alpha}
	for i := range lt.avg {
		lt.avg[i] = 1
	}
	return lt
}

// Pick returns the backend with the lowest estimated time to finish.
func (lt *LeastTime) Pick(*rand.Rand) int {
	best := 0
	for i := range lt.active {
		if float64(lt.active[i]+1)*lt.avg[i] < float64(lt.active[best]+1)*lt.avg[best] {
			best = i
		}
	}
	lt.active[best]++
	return best
}

// Served adds a measured service time on backend i to its average.
func (lt *LeastTime) Served(i int, d float64) {
	lt.avg[i] += lt.alpha * (d - lt.avg[i])
}

// Done counts the request as served.
func (lt *LeastTime) Done(i int) { lt.active[i]-- }

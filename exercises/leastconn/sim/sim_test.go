package sim

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func leastConn(n int) Balancer { return NewCounting(n, LeastConn()) }

func small(load float64) Config {
	return Config{Backends: 16, Load: load, Sigma: 1, Requests: 40000, Warmup: 4000, Runs: 1, Seed: 1}
}

func TestRunIsDeterministic(t *testing.T) {
	a, err := Run(small(0.9), leastConn)
	require.NoError(t, err)
	b, err := Run(small(0.9), leastConn)
	require.NoError(t, err)
	assert.Equal(t, a, b, "the same configuration must give the same figures")
	c, err := Run(func() Config { c := small(0.9); c.Seed = 2; return c }(), leastConn)
	require.NoError(t, err)
	assert.NotEqual(t, a.Mean, c.Mean, "another seed gives other requests")
}

// TestMatchesPollaczekKhinchine checks the simulator where theory has an
// answer: one server with Poisson arrivals is an M/G/1 queue, whose mean
// wait is rho*E[S^2]/(2(1-rho)), and E[S^2] = exp(sigma^2) for lognormal
// sizes of mean 1.
func TestMatchesPollaczekKhinchine(t *testing.T) {
	for _, c := range []struct{ rho, sigma float64 }{{0.5, 1}, {0.7, 0.5}, {0.5, 0}} {
		cfg := Config{Backends: 1, Load: c.rho, Sigma: c.sigma, Requests: 200000, Warmup: 10000, Runs: 3, Seed: 1}
		res, err := Run(cfg, NewRoundRobin)
		require.NoError(t, err)
		want := c.rho * math.Exp(c.sigma*c.sigma) / (2 * (1 - c.rho))
		assert.InEpsilon(t, want, res.Mean, 0.05, "rho %.1f, sigma %.1f", c.rho, c.sigma)
	}
}

// TestOverloadGrowsWithTheRun pins what the lesson says about round robin
// in front of a backend at half speed: its queue has no steady state, so
// the mean wait grows with the run, while least connections' does not.
func TestOverloadGrowsWithTheRun(t *testing.T) {
	slow := slices.Repeat([]float64{1}, 16)
	slow[0] = 0.5
	mean := func(nb func(int) Balancer, requests int) float64 {
		cfg := Config{Backends: 16, Speed: slow, Load: 0.8, Sigma: 1, Requests: requests, Warmup: 2000, Runs: 1, Seed: 3}
		res, err := Run(cfg, nb)
		require.NoError(t, err)
		return res.Mean
	}
	short, long := mean(NewRoundRobin, 30000), mean(NewRoundRobin, 60000)
	assert.Greater(t, long, 1.6*short, "round robin: the slow backend's queue keeps growing")
	short, long = mean(leastConn, 30000), mean(leastConn, 60000)
	assert.Less(t, long, 1.3*short, "least connections: a steady state")
}

func TestSharesFollowThePolicy(t *testing.T) {
	res, err := Run(small(0.8), NewRoundRobin)
	require.NoError(t, err)
	for i, s := range res.Share {
		assert.InDelta(t, 1.0/16, s, 1e-3, "round robin gives backend %d its sixteenth", i)
	}
	w := slices.Repeat([]float64{1}, 16)
	w[3] = 4
	res, err = Run(small(0.5), func(n int) Balancer { return NewWeighted(w, n) })
	require.NoError(t, err)
	assert.InDelta(t, 4.0/19, res.Share[3], 1e-3, "weight 4 of 19")
}

func TestWeightedIsSmooth(t *testing.T) {
	w := NewWeighted([]float64{5, 1, 1}, 3)
	var got []int
	for range 7 {
		got = append(got, w.Pick(nil))
	}
	// nginx's smooth weighted round robin spreads the heavy backend out.
	assert.Equal(t, []int{0, 0, 1, 0, 2, 0, 0}, got)
}

func TestLeastConnTiesGoRound(t *testing.T) {
	c := NewCounting(3, LeastConn())
	var got []int
	for range 4 {
		got = append(got, c.Pick(nil))
	}
	assert.Equal(t, []int{0, 1, 2, 0}, got)
	c.Done(1)
	assert.Equal(t, 1, c.Pick(nil), "the fewest connections come before the turn")
	assert.Equal(t, 2, c.Pick(nil), "then the next after the previous pick")
	f := NewCounting(3, LeastConnFirst)
	assert.Equal(t, []int{0, 1, 2, 0}, []int{f.Pick(nil), f.Pick(nil), f.Pick(nil), f.Pick(nil)})
	f.Done(0) // [1 1 1] after a pick of 0: in turn would be 1
	assert.Equal(t, 0, f.Pick(nil), "LeastConnFirst sends a tie to the lowest index")
}

func TestTwoDistinct(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	count := make([]int, 5)
	for range 50000 {
		a, b := TwoDistinct(r, 5)
		require.NotEqual(t, a, b)
		count[a]++
		count[b]++
	}
	for i, c := range count {
		assert.InDelta(t, 20000, c, 600, "backend %d is drawn as often as the others", i)
	}
	a, b := TwoDistinct(r, 1)
	assert.Equal(t, [2]int{0, 0}, [2]int{a, b})
}

func TestStaleSnapshotHerds(t *testing.T) {
	fresh, err := RunStale(small(0.95), 0.05, LeastConn)
	require.NoError(t, err)
	old, err := RunStale(small(0.95), 20, LeastConn)
	require.NoError(t, err)
	random, err := Run(small(0.95), NewRandom)
	require.NoError(t, err)
	assert.Less(t, fresh.Mean, random.Mean/4, "a fresh snapshot is almost full knowledge")
	assert.Greater(t, old.Mean, random.Mean, "an old shared snapshot makes a herd, worse than random")
}

func TestStickySessions(t *testing.T) {
	few, err := RunSticky(small(0.8), 50, 100)
	require.NoError(t, err)
	none, err := Run(small(0.8), leastConn)
	require.NoError(t, err)
	assert.Greater(t, few.Mean, 10*none.Mean, "a few sticky sessions take the choice away")
}

type badBalancer struct{ pick int }

func (b badBalancer) Pick(*rand.Rand) int { return b.pick }
func (badBalancer) Done(int)              {}

func TestBadPick(t *testing.T) {
	for _, pick := range []int{16, -1} {
		_, err := Run(small(0.5), func(int) Balancer { return badBalancer{pick} })
		var bad *BadPickError
		require.True(t, errors.As(err, &bad), "pick %d: %v", pick, err)
		assert.Equal(t, BadPickError{Request: 0, Backend: pick, N: 16}, *bad)
	}
}

func TestConfigIsChecked(t *testing.T) {
	for _, change := range []func(*Config){
		func(c *Config) { c.Backends = 0 },
		func(c *Config) { c.Speed = []float64{1} },
		func(c *Config) { c.Load = 0 },
		func(c *Config) { c.Sigma = -1 },
		func(c *Config) { c.Runs = 0 },
		func(c *Config) { c.Warmup = c.Requests },
		func(c *Config) { c.Speed = slices.Repeat([]float64{0}, 16) },
	} {
		c := small(0.5)
		change(&c)
		_, err := Run(c, NewRandom)
		assert.Error(t, err, "%+v", c)
	}
	_, err := RunStale(small(0.5), 0, LeastConn)
	assert.Error(t, err)
	_, err = RunSticky(small(0.5), 0, 10)
	assert.Error(t, err)
}

func TestPercentile(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for range 200 {
		xs := make([]float64, 1+r.IntN(300))
		for i := range xs {
			xs[i] = float64(r.IntN(6)) // many duplicates, like waits of 0
		}
		sorted := slices.Sorted(slices.Values(xs))
		q := r.Float64()
		k := max(int(math.Ceil(q*float64(len(xs))))-1, 0)
		assert.Equal(t, sorted[k], Percentile(xs, q))
	}
	assert.True(t, math.IsNaN(Percentile(nil, 0.5)))
}

func TestMaxLoad(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	assert.Equal(t, 1, MaxLoad(1, 1, r))
	assert.Less(t, MeanMaxLoad(10000, 2, 5, 1), MeanMaxLoad(10000, 1, 5, 1), "two choices fill the fullest bin less")
}

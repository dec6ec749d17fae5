package sim

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

func TestExplore4(t *testing.T) {
	if os.Getenv("EXPLORE4") == "" {
		t.Skip()
	}
	slow := make([]float64, 16)
	for i := range slow {
		slow[i] = 1
	}
	slow[0] = 0.5
	for _, seed := range []uint64{7, 1, 2, 3} {
		for _, sc := range []Config{
			{Backends: 16, Sigma: 1, Requests: 65000, Warmup: 5000, Runs: 1, Seed: seed, Load: 0.95},
			{Backends: 16, Sigma: 1, Requests: 65000, Warmup: 5000, Runs: 1, Seed: seed, Load: 0.8, Speed: slow},
		} {
			for _, p := range []struct {
				n string
				f func(n int) Balancer
			}{{"random", NewRandom}, {"rr", NewRoundRobin}, {"lc", func(n int) Balancer { return NewCounting(n, LeastConn()) }},
				{"p2c", func(n int) Balancer { return NewCounting(n, TwoChoices) }},
				{"lcNoCount", func(n int) Balancer { return noCount{NewCounting(n, LeastConn())} }},
				{"lcLowest", func(n int) Balancer { return NewCounting(n, lowest) }},
				{"p2cWithRepl", func(n int) Balancer { return NewCounting(n, withRepl) }},
			} {
				r, _ := Run(sc, p.f)
				fmt.Printf("seed=%d load=%.2f slow=%v %-12s mean=%8.3f p99=%8.3f\n", seed, sc.Load, sc.Speed != nil, p.n, r.Mean, r.P99)
			}
		}
	}
}

type noCount struct{ *Counting }

func (c noCount) Pick(r *rand.Rand) int { i := c.choose(c.active, r); return i }
func (c noCount) Done(int)              {}

func lowest(active []int, _ *rand.Rand) int {
	best := 0
	for i, a := range active {
		if a < active[best] {
			best = i
		}
	}
	return best
}
func withRepl(active []int, r *rand.Rand) int {
	a, b := r.IntN(len(active)), r.IntN(len(active))
	if active[b] < active[a] {
		return b
	}
	return a
}

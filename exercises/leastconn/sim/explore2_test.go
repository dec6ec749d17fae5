package sim

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestExplore2(t *testing.T) {
	if os.Getenv("EXPLORE2") == "" {
		t.Skip()
	}
	pol := map[string]func(n int) Balancer{
		"random": NewRandom,
		"rr":     NewRoundRobin,
		"lc":     func(n int) Balancer { return NewCounting(n, LeastConn()) },
		"lt01":   func(n int) Balancer { return NewLeastTime(n, 0.01) },
		"p2c":    func(n int) Balancer { return NewCounting(n, TwoChoices) },
	}
	base := Config{Backends: 16, Load: 0.95, Sigma: 1, Requests: 300000, Warmup: 20000, Runs: 5, Seed: 1}
	for _, k := range []int{1, 2, 4, 8, 16, 64} {
		for _, p := range []string{"rr", "lc", "p2c"} {
			c := base
			c.Balancers = k
			s := time.Now()
			r, _ := Run(c, pol[p])
			fmt.Printf("herd k=%-3d %-6s mean=%8.3f p99=%8.3f (%s)\n", k, p, r.Mean, r.P99, time.Since(s))
		}
	}
	for _, ref := range []float64{0.1, 1, 5, 20} {
		for _, p := range []struct {
			n string
			c func() Chooser
		}{{"lc", LeastConn}, {"p2c", func() Chooser { return TwoChoices }}, {"random", func() Chooser { return RandomChoice }}} {
			r, _ := RunStale(base, ref, p.c)
			fmt.Printf("stale refresh=%-5g %-6s mean=%8.3f p99=%8.3f\n", ref, p.n, r.Mean, r.P99)
		}
	}
	c := base
	c.Load = 0.8
	r, _ := Run(c, pol["lt01"])
	fmt.Printf("lt01 equal80 mean=%8.3f p99=%8.3f\n", r.Mean, r.P99)
}

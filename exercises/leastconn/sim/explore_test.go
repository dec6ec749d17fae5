package sim

import (
	"fmt"
	"math"
	"os"
	"testing"
	"time"
)

func TestExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	start := time.Now()
	for _, n := range []int{100, 1000, 10000, 100000, 1000000} {
		ln := math.Log(float64(n))
		fmt.Printf("bins n=%d one=%.2f (%.2f) two=%.2f (%.2f)\n", n, MeanMaxLoad(n, 1, 15, 1), ln/math.Log(ln), MeanMaxLoad(n, 2, 15, 1), math.Log(ln)/math.Log(2))
	}
	fmt.Println("bins took", time.Since(start))
	pol := map[string]func(n int) Balancer{
		"random": NewRandom,
		"rr":     NewRoundRobin,
		"lc":     func(n int) Balancer { return NewCounting(n, LeastConn()) },
		"lt":     func(n int) Balancer { return NewLeastTime(n, 0.1) },
		"p2c":    func(n int) Balancer { return NewCounting(n, TwoChoices) },
	}
	order := []string{"random", "rr", "lc", "lt", "p2c"}
	base := Config{Backends: 16, Load: 0.8, Sigma: 1, Requests: 300000, Warmup: 20000, Runs: 5, Seed: 1}
	slow := make([]float64, 16)
	for i := range slow {
		slow[i] = 1
	}
	slow[0] = 0.5
	for _, sc := range []struct {
		name string
		cfg  Config
	}{
		{"equal80", base},
		{"equal95", func() Config { c := base; c.Load = 0.95; return c }()},
		{"slow50%@80", func() Config { c := base; c.Speed = slow; return c }()},
		{"slow50%@50", func() Config { c := base; c.Speed = slow; c.Load = 0.5; return c }()},
	} {
		for _, p := range order {
			s := time.Now()
			r, err := Run(sc.cfg, pol[p])
			if err != nil {
				t.Fatal(err)
			}
			fmt.Printf("%-12s %-7s mean=%8.3f p99=%8.3f share0=%.4f  (%s)\n", sc.name, p, r.Mean, r.P99, r.Share[0], time.Since(s))
		}
	}
}

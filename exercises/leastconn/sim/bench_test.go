package sim

import "testing"

func BenchmarkRun(b *testing.B) {
	cfg := Config{Backends: 16, Load: 0.95, Sigma: 1, Requests: 100000, Warmup: 10000, Runs: 1, Seed: 1}
	for b.Loop() {
		Run(cfg, func(n int) Balancer { return NewCounting(n, LeastConn()) })
	}
}

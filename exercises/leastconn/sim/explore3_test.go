package sim

import (
	"fmt"
	"os"
	"testing"
)

func TestExplore3(t *testing.T) {
	if os.Getenv("EXPLORE3") == "" {
		t.Skip()
	}
	slow := make([]float64, 16)
	for i := range slow {
		slow[i] = 1
	}
	slow[0] = 0.5
	base := Config{Backends: 16, Load: 0.8, Sigma: 1, Requests: 300000, Warmup: 20000, Runs: 5, Seed: 1, Speed: slow}
	for _, w := range []float64{0.5, 1, 0.25, 0.75} {
		ws := make([]float64, 16)
		copy(ws, slow)
		ws[0] = w
		r, _ := Run(base, func(n int) Balancer { return NewWeighted(ws, n) })
		fmt.Printf("wrr w=%.2f mean=%8.3f p99=%8.3f share0=%.4f\n", w, r.Mean, r.P99, r.Share[0])
	}
	eq := base
	eq.Speed = nil
	for _, L := range []float64{20, 100} {
		for _, S := range []int{5000, 500, 50} {
			r, _ := RunSticky(eq, S, L)
			fmt.Printf("sticky L=%g S=%d mean=%8.3f p99=%8.3f\n", L, S, r.Mean, r.P99)
		}
	}
}

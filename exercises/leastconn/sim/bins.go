package sim

import "math/rand/v2"

// MaxLoad throws n balls into n bins and returns how many balls the
// fullest bin holds. Each ball draws d bins independently at random (the
// same bin may come up twice) and goes to the one holding the fewest
// balls, ties to the first drawn; with d = 1 that is plain random
// placement.
func MaxLoad(n, d int, r *rand.Rand) int {
	bins := make([]int, n)
	most := 0
	for range n {
		best := r.IntN(n)
		for range d - 1 {
			if c := r.IntN(n); bins[c] < bins[best] {
				best = c
			}
		}
		bins[best]++
		most = max(most, bins[best])
	}
	return most
}

// MeanMaxLoad returns the mean of MaxLoad(n, d) over runs runs; run k
// uses the seed seed+k.
func MeanMaxLoad(n, d, runs int, seed uint64) float64 {
	sum := 0
	for k := range runs {
		sum += MaxLoad(n, d, rand.New(rand.NewPCG(seed+uint64(k), 0)))
	}
	return float64(sum) / float64(runs)
}

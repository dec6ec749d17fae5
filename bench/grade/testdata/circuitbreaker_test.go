// The hidden tests of circuitbreaker as a naive grader writes them for `go
// test`: the seed's trace, then random traces compared call by call with
// the reference. The benchmark copies this file next to each learner's
// breaker, and the reference to bench/reference/circuitbreaker.
package circuitbreaker_test

import (
	"math/rand/v2"
	"testing"

	learner "bench/circuitbreaker"
	reference "bench/reference/circuitbreaker"
)

type breaker interface {
	State() string
	Allow(now int) bool
	Success()
	Failure(now int)
}

func TestSeedTrace(t *testing.T) {
	b := learner.New(3, 5)
	steps := []struct {
		call  string
		now   int
		allow bool
		state string
	}{
		{"Failure", 0, false, "closed"}, {"Failure", 1, false, "closed"}, {"Success", 0, false, "closed"},
		{"Failure", 2, false, "closed"}, {"Failure", 3, false, "closed"}, {"Failure", 4, false, "open"},
		{"Allow", 8, false, "open"}, {"Allow", 9, true, "half_open"}, {"Allow", 9, false, "half_open"},
		{"Failure", 9, false, "open"}, {"Allow", 13, false, "open"}, {"Allow", 14, true, "half_open"},
		{"Success", 0, false, "closed"}, {"Allow", 15, true, "closed"},
	}
	for i, s := range steps {
		switch s.call {
		case "Allow":
			if got := b.Allow(s.now); got != s.allow {
				t.Fatalf("step %d: Allow(%d) = %v, want %v", i+1, s.now, got, s.allow)
			}
		case "Success":
			b.Success()
		case "Failure":
			b.Failure(s.now)
		}
		if got := b.State(); got != s.state {
			t.Fatalf("step %d: %s: State() = %q, want %q", i+1, s.call, got, s.state)
		}
	}
}

func TestRandomTraces(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trace := range 1000 {
		threshold, wait := 1+r.IntN(4), r.IntN(7)
		var l, ref breaker = learner.New(threshold, wait), reference.New(threshold, wait)
		now := 0
		for step := range 10 + r.IntN(40) {
			now += r.IntN(4)
			switch k := r.IntN(10); {
			case k == 0:
				l.Success()
				ref.Success()
			case k == 1:
				l.Failure(now)
				ref.Failure(now)
			default:
				got, want := l.Allow(now), ref.Allow(now)
				if got != want {
					t.Fatalf("trace %d (New(%d, %d)), step %d: Allow(%d) = %v, want %v", trace, threshold, wait, step+1, now, got, want)
				}
				if want {
					if r.IntN(3) == 0 {
						l.Failure(now)
						ref.Failure(now)
					} else {
						l.Success()
						ref.Success()
					}
				}
			}
			if got, want := l.State(), ref.State(); got != want {
				t.Fatalf("trace %d (New(%d, %d)), step %d: State() = %q, want %q", trace, threshold, wait, step+1, got, want)
			}
		}
	}
}

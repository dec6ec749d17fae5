// The test program of the exercise retrybudget: it drives the learner's
// budget and the reference through traces of requests and retries.
//
// It is built twice: with the learner's package, to answer, and with the
// reference in its place, to judge (see the harness package).
package main

import (
	"math/rand/v2"

	"github.com/kurs-course/kurs/internal/harness"
	ex "github.com/kurs-course/kurs/retrybudget"
)

func main() {
	harness.Main(harness.Traces{
		Observe: "Left()",
		Package: "github.com/kurs-course/kurs/retrybudget",
		New:     newSubject,
		Random:  random,
	})
}

type budget interface {
	Request(now int)
	CanRetry(now int) bool
	Left() float64
}

type subject struct{ b budget }

func newSubject(args []float64) harness.Subject {
	ratio, minRetries, window := args[0], int(args[1]), int(args[2])
	return subject{ex.New(ratio, minRetries, window)}
}

func (s subject) Do(call string, args []float64) string {
	switch call {
	case "Request":
		s.b.Request(int(args[0]))
	case "CanRetry":
		return harness.Bool(s.b.CanRetry(int(args[0])))
	}
	return ""
}

func (s subject) Observe() string { return harness.Float(s.b.Left()) }

// ratios hold shares whose multiples stay exact in binary floating point,
// so a learner who sums or multiplies in another order gets the same
// budget; 0.1 would not (ten times 0.1 added up is 0.9999999999999999).
var ratios = []float64{0, 0.125, 0.25, 0.5, 0.75, 1, 1.5}

// random returns a trace as clients make it: requests and retries in
// bursts within a tick, steps of one tick, and pauses that let the window
// empty, with ticks that never go backwards.
func random(r *rand.Rand) harness.Trace {
	window := 1 + r.IntN(8)
	tr := harness.Trace{New: []float64{ratios[r.IntN(len(ratios))], float64(r.IntN(4)), float64(window)}}
	now := 0
	retryShare := 0.2 + 0.6*r.Float64()
	rounds := 5 + r.IntN(50)
	// One step a round: room for all, so that the judge grows no slice.
	tr.Steps = make([]harness.Step, 0, rounds)
	for range rounds {
		switch r.IntN(6) {
		case 0:
			now += r.IntN(window + 4)
		case 1, 2:
			now++
		}
		call := "Request"
		if r.Float64() < retryShare {
			call = "CanRetry"
		}
		tr.Steps = append(tr.Steps, harness.Step{Call: call, Args: []float64{float64(now)}})
	}
	return tr
}

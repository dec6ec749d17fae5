// The test program of the exercise circuitbreaker: it drives the learner's
// breaker and the reference through traces of calls.
//
// It is built twice: with the learner's package, to answer, and with the
// reference in its place, to judge (see the harness package).
package main

import (
	"math/rand/v2"

	ex "github.com/kurs-course/kurs/circuitbreaker"
	"github.com/kurs-course/kurs/internal/harness"
)

func main() {
	harness.Main(harness.Traces{
		Observe: "State()",
		Package: "github.com/kurs-course/kurs/circuitbreaker",
		New:     newSubject,
		Random:  random,
	})
}

type breaker interface {
	State() string
	Allow(now int) bool
	Success()
	Failure(now int)
}

type subject struct{ b breaker }

func newSubject(args []float64) harness.Subject {
	threshold, wait := int(args[0]), int(args[1])
	return subject{ex.New(threshold, wait)}
}

func (s subject) Do(call string, args []float64) string {
	switch call {
	case "Allow":
		return harness.Bool(s.b.Allow(int(args[0])))
	case "Success":
		s.b.Success()
	case "Failure":
		s.b.Failure(int(args[0]))
	}
	return ""
}

func (s subject) Observe() string { return s.b.State() }

// random returns a trace as a client would make it: ticks that never go
// backwards, a call allowed or not, and a downstream that fails in bursts.
func random(r *rand.Rand) harness.Trace {
	tr := harness.Trace{New: []float64{float64(1 + r.IntN(4)), float64(r.IntN(7))}}
	now := 0
	ref := subject{ex.New(int(tr.New[0]), int(tr.New[1]))}
	failRate := r.Float64()
	n := 10 + r.IntN(40)
	// Room for every step, so that the judge grows no slice: a call
	// allowed is followed by its outcome.
	tr.Steps = make([]harness.Step, 0, 2*n)
	for range n {
		now += r.IntN(4)
		if r.IntN(8) == 0 {
			now += r.IntN(8)
		}
		t := float64(now)
		switch k := r.IntN(10); {
		case k < 1:
			// A stray report without asking first: calls the task says
			// change nothing in some states must really change nothing.
			if r.IntN(2) == 0 {
				tr.Steps = append(tr.Steps, harness.Step{Call: "Success"})
				ref.Do("Success", nil)
			} else {
				tr.Steps = append(tr.Steps, harness.Step{Call: "Failure", Args: []float64{t}})
				ref.Do("Failure", []float64{t})
			}
		default:
			tr.Steps = append(tr.Steps, harness.Step{Call: "Allow", Args: []float64{t}})
			if ref.Do("Allow", []float64{t}) == "true" {
				call, args := "Success", []float64(nil)
				if r.Float64() < failRate {
					call, args = "Failure", []float64{t}
				}
				tr.Steps = append(tr.Steps, harness.Step{Call: call, Args: args})
				ref.Do(call, args)
			}
		}
	}
	return tr
}

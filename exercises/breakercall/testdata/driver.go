// The test program of the exercise breakercall: it drives the learner's
// breaker and the reference through traces of calls on a simulated clock.
//
// Steps of a trace:
//
//	At(t)                the clock moves on to t (if it is not later
//	                     already): the next call arrives then
//	CallOK(ms)           b.Call(fn), where fn takes ms and returns nil
//	CallFail(ms)         b.Call(fn), where fn takes ms and returns errDown
//	CallOKOverlap(ms)    like CallOK and CallFail, but while fn runs a
//	CallFailOverlap(ms)  second caller asks b.State() and makes its own
//	                     b.Call with a fn that succeeds at once: a
//	                     concurrent caller, made deterministic
//
// Each call's result is "nil" or "errDown" when fn ran and its error came
// back, "ErrOpen" when Call refused without calling fn; anything else is
// spelled out. After each step the harness compares State() and the clock.
//
// It is built twice: with the learner's package, to answer, and with the
// reference in its place, to judge (see the harness package).
package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"

	ex "github.com/kurs-course/kurs/breakercall"
	"github.com/kurs-course/kurs/exercises/breakercall/sim"
	"github.com/kurs-course/kurs/internal/harness"
)

func main() {
	harness.Main(harness.Traces{
		Observe: "State(), now()",
		Package: "github.com/kurs-course/kurs/breakercall",
		New:     newSubject,
		Random:  random,
	})
}

type breaker interface {
	Call(fn func() error) error
	State() string
}

type subject struct {
	b       breaker
	clock   *sim.Clock
	errOpen error
}

func newSubject(args []float64) harness.Subject {
	threshold, wait := int(args[0]), int(args[1])
	c := &sim.Clock{}
	return &subject{ex.New(threshold, wait, c.Now), c, ex.ErrOpen}
}

func (s *subject) Do(call string, args []float64) string {
	n := 0 // a time for At, a duration for the calls
	if len(args) > 0 {
		n = int(args[0])
	}
	fail := call == "CallFail" || call == "CallFailOverlap"
	overlap := call == "CallOKOverlap" || call == "CallFailOverlap"
	switch call {
	case "At":
		s.clock.AdvanceTo(n)
		return ""
	case "CallOK", "CallFail", "CallOKOverlap", "CallFailOverlap":
	default:
		return "unknown step " + call
	}
	ran := false
	var seen, second string
	err := s.b.Call(func() error {
		ran = true
		if overlap {
			seen = s.b.State()
			secondRan := false
			secondErr := s.b.Call(func() error {
				secondRan = true
				return nil
			})
			second = s.result(secondErr, secondRan)
		}
		s.clock.Advance(n)
		if fail {
			return sim.ErrDown
		}
		return nil
	})
	got := s.result(err, ran)
	if overlap && ran {
		got += fmt.Sprintf(" [State() = %s, Call() = %s]", seen, second)
	}
	return got
}

// result names what a call returned; a result that does not fit whether
// fn ran says so.
func (s *subject) result(err error, ran bool) string {
	var what string
	switch {
	case err == nil:
		what = "nil"
	case errors.Is(err, s.errOpen) && errors.Is(err, sim.ErrDown):
		what = "ErrOpen+errDown"
	case errors.Is(err, s.errOpen):
		what = "ErrOpen"
	case errors.Is(err, sim.ErrDown):
		what = "errDown"
	default:
		what = fmt.Sprintf("error %q", err.Error())
	}
	switch {
	case ran && what == "ErrOpen":
		return what + " after fn()"
	case !ran && what != "ErrOpen":
		return what + " without fn()"
	}
	return what
}

func (s *subject) Observe() string {
	return s.b.State() + ", " + strconv.Itoa(s.clock.Now())
}

// waits are the breaker's waits in random traces: 0 probes at once, the
// others let a few calls pass before the probe.
var waits = []int{0, 50, 100, 150, 200, 300}

// costs are how long a call takes; 0 is a call that fails or answers at
// once, where the time of opening is the same before and after the call.
var costs = []int{0, 10, 50, 100}

// random returns a trace as a client would make it: calls to a downstream
// that fails at a rate of its own, in bursts and after pauses.
func random(r *rand.Rand) harness.Trace {
	tr := harness.Trace{New: []float64{float64(1 + r.IntN(4)), float64(waits[r.IntN(len(waits))])}}
	failRate := r.Float64()
	at := 0
	rounds := 10 + r.IntN(40)
	// One step a round: room for all, so that the judge grows no slice.
	tr.Steps = make([]harness.Step, 0, rounds)
	for range rounds {
		if r.IntN(5) == 0 {
			at += 10 * r.IntN(61)
			tr.Steps = append(tr.Steps, harness.Step{Call: "At", Args: []float64{float64(at)}})
			continue
		}
		call := "CallOK"
		if r.Float64() < failRate {
			call = "CallFail"
		}
		tr.Steps = append(tr.Steps, harness.Step{Call: call, Args: []float64{float64(costs[r.IntN(len(costs))])}})
	}
	return tr
}

// The test program of the exercise leastconn: it drives the learner's
// balancer and the reference through traces of Pick and Done, and measures
// the learner's balancer in the lesson's simulator against random and
// round robin.
//
// It is built twice: with the learner's package, to answer, and with the
// reference in its place, to judge (see the harness package).
package main

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/kurs-course/kurs/exercises/leastconn/outcome"
	"github.com/kurs-course/kurs/exercises/leastconn/sim"
	"github.com/kurs-course/kurs/internal/harness"
	ex "github.com/kurs-course/kurs/leastconn"
)

const pkg = "github.com/kurs-course/kurs/leastconn"

func main() {
	harness.Main(outcome.Driver{
		Traces: harness.Traces{
			Observe: "Active()",
			Package: pkg,
			New:     newSubject,
			Random:  random,
		},
		Name:     "leastconn",
		Balancer: newAdapter,
	})
}

type balancer interface {
	Pick() int
	Done(i int)
	Active() []int
}

type subject struct{ b balancer }

func newSubject(args []float64) harness.Subject {
	return subject{ex.New(int(args[0]))}
}

func (s subject) Do(call string, args []float64) string {
	switch call {
	case "Pick":
		return strconv.Itoa(s.b.Pick())
	case "Done":
		s.b.Done(int(args[0]))
	}
	return ""
}

func (s subject) Observe() string { return fmt.Sprint(s.b.Active()) }

// random returns a trace of picks and dones on up to eight backends. Done
// is only called for a backend with an active connection, which the
// generator learns from its own copy of the balancer (in the judge, the
// reference's).
func random(r *rand.Rand) harness.Trace {
	n := 1 + r.IntN(8)
	tr := harness.Trace{New: []float64{float64(n)}}
	ref := ex.New(n)
	rounds := 5 + r.IntN(40)
	// One step a round: room for all, so that the judge grows no slice.
	tr.Steps = make([]harness.Step, 0, rounds)
	for range rounds {
		var busy []int
		for i, a := range ref.Active() {
			if a > 0 {
				busy = append(busy, i)
			}
		}
		if len(busy) > 0 && r.IntN(5) < 2 {
			i := busy[r.IntN(len(busy))]
			ref.Done(i)
			tr.Steps = append(tr.Steps, harness.Step{Call: "Done", Args: []float64{float64(i)}})
			continue
		}
		ref.Pick()
		tr.Steps = append(tr.Steps, harness.Step{Call: "Pick"})
	}
	return tr
}

// adapter lets the simulator drive the learner's balancer.
type adapter struct{ b *ex.Balancer }

func (a adapter) Pick(*rand.Rand) int { return a.b.Pick() }
func (a adapter) Done(i int)          { a.b.Done(i) }

func newAdapter(n int) sim.Balancer { return adapter{ex.New(n)} }

// The test program of the exercise backoff: it drives the learner's backoff
// and the reference through traces of delays and resets.
//
// It is built twice: with the learner's package, to answer, and with the
// reference in its place, to judge (see the harness package).
package main

import (
	"math"
	"math/rand/v2"
	"strconv"

	ex "github.com/kurs-course/kurs/backoff"
	"github.com/kurs-course/kurs/internal/harness"
)

func main() {
	harness.Main(harness.Traces{
		Observe: "Attempt()",
		Package: "github.com/kurs-course/kurs/backoff",
		New:     newSubject,
		Random:  random,
	})
}

type backoff interface {
	Next(rnd float64) float64
	Reset()
	Attempt() int
}

type subject struct{ b backoff }

func newSubject(args []float64) harness.Subject {
	return subject{ex.New(args[0], args[1])}
}

func (s subject) Do(call string, args []float64) string {
	switch call {
	case "Next":
		return harness.Float(s.b.Next(args[0]))
	case "Reset":
		s.b.Reset()
	}
	return ""
}

func (s subject) Observe() string { return strconv.Itoa(s.b.Attempt()) }

// bases and spans make delays from half a tick to hours of milliseconds;
// maxDelay is base times a span, sometimes below base itself.
var (
	bases = []float64{0.5, 1, 2, 10, 50, 100}
	spans = []float64{0.5, 1, 3, 8, 100, 1000, 1e6}
)

// random returns a trace as a client makes it: runs of failed attempts,
// some long enough that 2^attempt no longer fits an int, and, in some
// traces, a success now and then that resets the backoff.
func random(r *rand.Rand) harness.Trace {
	base := bases[r.IntN(len(bases))]
	tr := harness.Trace{New: []float64{base, base * spans[r.IntN(len(spans))]}}
	resetChance := []float64{0, 0, 0.05, 0.15}[r.IntN(4)]
	rounds := 1 + r.IntN(90)
	// One step a round: room for all, so that the judge grows no slice.
	tr.Steps = make([]harness.Step, 0, rounds)
	for range rounds {
		if r.Float64() < resetChance {
			tr.Steps = append(tr.Steps, harness.Step{Call: "Reset"})
			continue
		}
		var rnd float64
		switch r.IntN(5) {
		case 0:
			rnd = 1
		case 1:
			rnd = 0
		case 2:
			rnd = 0.5
		default:
			rnd = math.Round(r.Float64()*1000) / 1000
		}
		tr.Steps = append(tr.Steps, harness.Step{Call: "Next", Args: []float64{rnd}})
	}
	return tr
}

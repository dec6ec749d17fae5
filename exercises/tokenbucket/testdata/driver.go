// The test program of the exercise tokenbucket: it drives the learner's
// bucket and the reference through traces of requests.
//
// It is built twice: with the learner's package, to answer, and with the
// reference in its place, to judge (see the harness package).
package main

import (
	"math/rand/v2"

	"github.com/kurs-course/kurs/internal/harness"
	ex "github.com/kurs-course/kurs/tokenbucket"
)

func main() {
	harness.Main(harness.Traces{
		Observe: "Tokens()",
		Package: "github.com/kurs-course/kurs/tokenbucket",
		New:     newSubject,
		Random:  random,
	})
}

type bucket interface {
	Allow(now int) bool
	Tokens() float64
}

type subject struct{ b bucket }

func newSubject(args []float64) harness.Subject {
	return subject{ex.New(args[0], args[1])}
}

func (s subject) Do(call string, args []float64) string {
	if call == "Allow" {
		return harness.Bool(s.b.Allow(int(args[0])))
	}
	return ""
}

func (s subject) Observe() string { return harness.Float(s.b.Tokens()) }

// rates holds rates whose sums stay exact in binary floating point, so a
// learner who adds in another order still gets the same tokens.
var rates = []float64{0.25, 0.5, 0.75, 1, 1.5, 2, 3}

// random returns a trace of requests in bursts and pauses, with ticks that
// never go backwards.
func random(r *rand.Rand) harness.Trace {
	tr := harness.Trace{New: []float64{float64(1 + r.IntN(5)), rates[r.IntN(len(rates))]}}
	now := 0
	rounds := 5 + r.IntN(40)
	// One step a round: room for all, so that the judge grows no slice.
	tr.Steps = make([]harness.Step, 0, rounds)
	for range rounds {
		switch r.IntN(4) {
		case 0:
			now += r.IntN(10)
		case 1:
			now++
		}
		tr.Steps = append(tr.Steps, harness.Step{Call: "Allow", Args: []float64{float64(now)}})
	}
	return tr
}

// The test program of the exercise bulkheadpool: it drives the learner's
// pools and the reference through the lesson's scenario, a slow
// recommendations service next to a critical checkout.
//
// A trace's New(n) gives both services one shared pool of n slots (the
// chapter's shared connection pool); New(r, c) gives recommendations a
// pool of r slots and checkout its own pool of c (the bulkhead). Steps are
// recommendations.TryAcquire(), recommendations.Release(),
// checkout.TryAcquire() and checkout.Release(); after each, the harness
// compares InUse() of the pool or pools.
//
// It is built twice: with the learner's package, to answer, and with the
// reference in its place, to judge (see the harness package).
package main

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	ex "github.com/kurs-course/kurs/bulkheadpool"
	"github.com/kurs-course/kurs/internal/harness"
)

func main() {
	harness.Main(harness.Traces{
		Observe: "InUse()",
		Package: "github.com/kurs-course/kurs/bulkheadpool",
		New:     newSubject,
		Random:  random,
	})
}

type pool interface {
	TryAcquire() bool
	Release()
	InUse() int
}

// subject holds the pool of each service; with a shared pool both are the
// same value.
type subject struct {
	pools  map[string]pool
	shared bool
}

func newSubject(args []float64) harness.Subject {
	newPool := func(size float64) pool { return ex.New(int(size)) }
	if len(args) == 1 {
		p := newPool(args[0])
		return &subject{pools: map[string]pool{"recommendations": p, "checkout": p}, shared: true}
	}
	return &subject{pools: map[string]pool{"recommendations": newPool(args[0]), "checkout": newPool(args[1])}}
}

func (s *subject) Do(call string, _ []float64) string {
	service, method, _ := strings.Cut(call, ".")
	p, ok := s.pools[service]
	if !ok {
		return "unknown step " + call
	}
	switch method {
	case "TryAcquire":
		return harness.Bool(p.TryAcquire())
	case "Release":
		p.Release()
		return ""
	}
	return "unknown step " + call
}

func (s *subject) Observe() string {
	if s.shared {
		return strconv.Itoa(s.pools["checkout"].InUse())
	}
	return fmt.Sprintf("recommendations %d, checkout %d", s.pools["recommendations"].InUse(), s.pools["checkout"].InUse())
}

// random returns a trace of a busy recommendations service and a checkout
// that comes and goes, on a shared pool or on two, with now and then a
// Release that has no slot to give back.
func random(r *rand.Rand) harness.Trace {
	var tr harness.Trace
	if r.IntN(2) == 0 {
		tr.New = []float64{float64(r.IntN(7))}
	} else {
		tr.New = []float64{float64(r.IntN(5)), float64(r.IntN(4))}
	}
	recs := 0.5 + r.Float64()/2 // the share of steps that are the recommendations'
	for range 5 + r.IntN(36) {
		service := "checkout"
		if r.Float64() < recs {
			service = "recommendations"
		}
		method := "TryAcquire"
		if r.IntN(3) == 0 {
			method = "Release"
		}
		tr.Steps = append(tr.Steps, harness.Step{Call: service + "." + method})
	}
	return tr
}

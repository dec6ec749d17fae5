// The test program of the exercise bulkheadpool: it drives the learner's
// pools and the reference through the lesson's scenario, a slow
// recommendations service next to a critical checkout.
//
// A trace's New(n) gives both services one shared pool of n slots (the
// lesson's shared connection pool); New(r, c) gives recommendations a
// pool of r slots and checkout its own pool of c (the bulkhead). Steps are
// recommendations.TryAcquire(), recommendations.Release(),
// checkout.TryAcquire() and checkout.Release(); after each, the harness
// compares InUse() of the pool or pools.
//
// The tests named concurrent/... are stress tests: sixteen goroutines take
// and give back the slots of one pool of New(size) at once, as the callers
// of a real bulkhead do. The learner's program counts, with its own atomic
// counter, how many callers held a slot at the same time, and notes every
// InUse() a caller saw while it held one; the judge requires at most size
// callers at once, 1 <= InUse() <= size while holding, and InUse() = 0
// once every slot is back (see harness.Stress).
//
// It is built twice: with the learner's package, to answer, and with the
// reference in its place, to judge (see the harness package).
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"

	ex "github.com/kurs-course/kurs/bulkheadpool"
	"github.com/kurs-course/kurs/internal/harness"
)

func main() {
	harness.Main(harness.Stress{
		Traces: harness.Traces{
			Observe: "InUse()",
			Package: "github.com/kurs-course/kurs/bulkheadpool",
			New:     newSubject,
			Random:  random,
		},
		Start:  newStress,
		Bounds: bounds,
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
	rounds := 5 + r.IntN(36)
	// One step a round: room for all, so that the judge grows no slice.
	tr.Steps = make([]harness.Step, 0, rounds)
	for range rounds {
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

// stress is one stress test: a pool of size slots shared by every
// goroutine, and the driver's own count of the callers holding a slot.
type stress struct {
	p        pool
	size     int64
	inFlight atomic.Int64
}

func newStress(args []float64) harness.Worker {
	return &stress{p: ex.New(int(args[0])), size: int64(args[0])}
}

// hold is how many times a caller reads InUse() while it holds its
// slots.
const hold = 3

// Work takes every free slot it can get, notes how many slots the callers
// hold together and what InUse() says meanwhile, and gives its slots back,
// until stop is set or it has seen an invariant broken. Taking slots until
// TryAcquire says false keeps the pool full most of the time, the moment
// at which a second caller who got in by mistake shows in the counts.
func (s *stress) Work(stop *atomic.Bool) harness.Claims {
	var acquired, maxInFlight, maxInUse int64
	minInUse := int64(math.MaxInt64)
	for !stop.Load() {
		k := int64(0)
		// A caller never holds more than size slots of a pool that
		// keeps count: one that never refuses (the skeleton's) has
		// broken the bound here, and taking more would never end.
		for k <= s.size && s.p.TryAcquire() {
			k++
			maxInFlight = max(maxInFlight, s.inFlight.Add(1))
		}
		if k == 0 {
			// Full: the callers holding the slots may be waiting for the
			// processor.
			harness.Yield()
			continue
		}
		acquired += k
		for range hold {
			u := int64(s.p.InUse())
			minInUse, maxInUse = min(minInUse, u), max(maxInUse, u)
		}
		maxInFlight = max(maxInFlight, s.inFlight.Load())
		for range k {
			s.inFlight.Add(-1)
			s.p.Release()
		}
		if maxInFlight > s.size || maxInUse > s.size || minInUse < 1 {
			stop.Store(true)
		}
	}
	c := harness.Claims{"acquired": acquired, "maxInFlight": maxInFlight}
	if acquired > 0 {
		c["maxInUse"], c["minInUse"] = maxInUse, minInUse
	}
	return c
}

// Finish reads InUse() once every caller has given its slot back.
func (s *stress) Finish() harness.Claims {
	return harness.Claims{"finalInUse": int64(s.p.InUse())}
}

// bounds are the invariants of a pool of size slots under stress.
func bounds(args []float64) []harness.Bound {
	size := int64(args[0])
	return []harness.Bound{
		{Claim: "acquired"},
		{Claim: "maxInFlight", Op: "<=", Limit: size},
		{Claim: "maxInUse", Op: "<=", Limit: size},
		{Claim: "minInUse", Op: ">=", Limit: 1},
		{Claim: "finalInUse", Op: "==", Limit: 0},
	}
}

// The test program of the exercise twochoices: it drives the learner's
// balancer and the reference through traces of Pick and Done, and measures
// the learner's balancer in the lesson's simulator against random and
// round robin.
package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/exercises/leastconn/sim"
	"github.com/kurs-course/kurs/harness"
	reference "github.com/kurs-course/kurs/internal/reference/twochoices"
	learner "github.com/kurs-course/kurs/twochoices"
)

const pkg = "github.com/kurs-course/kurs/twochoices"

func main() {
	harness.Main(driver{harness.Traces{
		Observe: "Active()",
		Package: pkg,
		New:     newSubject,
		Random:  random,
	}})
}

// driver runs the measured-outcome tests itself and every other test as a
// trace.
type driver struct{ traces harness.Traces }

func (d driver) Run(t harness.Test, seed uint64, p *harness.Progress) *harness.Failure {
	if sc, ok := scenarios[t.Name]; ok {
		return outcome(sc, p)
	}
	return d.traces.Run(t, seed, p)
}

type balancer interface {
	Pick(a, b int) int
	Done(i int)
	Active() []int
}

type subject struct{ b balancer }

func newSubject(ref bool, args []float64) harness.Subject {
	if ref {
		return subject{reference.New(int(args[0]))}
	}
	return subject{learner.New(int(args[0]))}
}

func (s subject) Do(call string, args []float64) string {
	switch call {
	case "Pick":
		return strconv.Itoa(s.b.Pick(int(args[0]), int(args[1])))
	case "Done":
		s.b.Done(int(args[0]))
	}
	return ""
}

func (s subject) Observe() string { return fmt.Sprint(s.b.Active()) }

// random returns a trace of picks and dones on up to eight backends. Each
// Pick gets two different backends (both 0 when there is only one), drawn
// as the simulator draws them. Done is only called for a backend with an
// active connection, which the generator learns from its own copy of the
// reference.
func random(r *rand.Rand) harness.Trace {
	n := 1 + r.IntN(8)
	tr := harness.Trace{New: []float64{float64(n)}}
	ref := reference.New(n)
	for range 5 + r.IntN(40) {
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
		a, b := sim.TwoDistinct(r, n)
		ref.Pick(a, b)
		tr.Steps = append(tr.Steps, harness.Step{Call: "Pick", Args: []float64{float64(a), float64(b)}})
	}
	return tr
}

// scenario is a measured-outcome test: the learner's balancer, random and
// round robin in the same simulated cluster, with the same requests.
type scenario struct {
	cfg  sim.Config
	name string // how the calls name the learner's balancer
}

// backends is the size of the simulated cluster, as in the lesson.
const backends = 16

// base is the lesson's cluster, run shorter than for the lesson's figures
// so that a check stays fast: one run of 60,000 requests after a warm-up
// of 5,000. The seed is fixed, so the figures do not depend on --seed.
var base = sim.Config{Backends: backends, Sigma: 1, Requests: 65000, Warmup: 5000, Runs: 1, Seed: 7}

var scenarios = map[string]scenario{
	"outcome/load-95": {cfg: with(func(c *sim.Config) { c.Load = 0.95 }), name: "twochoices"},
	"outcome/slow-backend": {cfg: with(func(c *sim.Config) {
		c.Load = 0.8
		c.Speed = make([]float64, backends)
		for i := range c.Speed {
			c.Speed[i] = 1
		}
		c.Speed[0] = 0.5 // backend 0 takes twice as long
	}), name: "twochoices"},
}

func with(change func(*sim.Config)) sim.Config {
	c := base
	change(&c)
	return c
}

// adapter lets the simulator drive the learner's balancer: it draws the two
// backends and lets the learner's balancer choose between them.
type adapter struct {
	b *learner.Balancer
	n int
}

func (a adapter) Pick(r *rand.Rand) int {
	x, y := sim.TwoDistinct(r, a.n)
	return a.b.Pick(x, y)
}

func (a adapter) Done(i int) { a.b.Done(i) }

// outcome measures the learner's balancer and the two baselines and
// requires the learner's mean and 99th-percentile waits to be at most half
// of round robin's. The steps it reports read as Go expressions, so that
// they need no translation.
func outcome(sc scenario, p *harness.Progress) *harness.Failure {
	p.Trace("", 0, 0)
	newArgs := []float64{backends}
	var done []harness.Done
	fail := func(f *harness.Failure, call string) *harness.Failure {
		f.New, f.Done, f.Step, f.Call = newArgs, done, len(done)+1, call
		return f
	}
	measure := func(name string, nb func(n int) sim.Balancer) (res sim.Result, f *harness.Failure) {
		call := "MeanWait(" + name + ")"
		p.At(newArgs, done, len(done)+1, call)
		defer func() {
			if v := recover(); v != nil {
				f = fail(&harness.Failure{Kind: harness.Panicked, Panic: fmt.Sprint(v), Frame: learnerFrame()}, call)
			}
		}()
		res, err := sim.Run(sc.cfg, nb)
		if e := (*sim.BadPickError)(nil); errors.As(err, &e) {
			done = append(done, harness.Done{Call: "Pick()", Got: harness.Result{Obs: strconv.Itoa(e.Backend)}})
			return res, fail(&harness.Failure{Kind: harness.Mismatch, Want: harness.Result{Obs: "true"}, Got: harness.Result{Obs: "false"}},
				fmt.Sprintf("0 <= %d && %d < %d", e.Backend, e.Backend, e.N))
		}
		if err != nil {
			panic(err) // a mistake in the scenario, not in the learner's code
		}
		return res, nil
	}
	results := map[string]sim.Result{}
	for _, b := range []struct {
		name string
		nb   func(n int) sim.Balancer
	}{
		{"random", sim.NewRandom},
		{"roundrobin", sim.NewRoundRobin},
		{sc.name, func(n int) sim.Balancer { return adapter{learner.New(n), n} }},
	} {
		res, f := measure(b.name, b.nb)
		if f != nil {
			return f
		}
		results[b.name] = res
	}
	for _, m := range []struct {
		fn  string
		get func(sim.Result) float64
	}{
		{"MeanWait", func(r sim.Result) float64 { return r.Mean }},
		{"P99Wait", func(r sim.Result) float64 { return r.P99 }},
	} {
		for _, name := range []string{"random", "roundrobin", sc.name} {
			done = append(done, harness.Done{Call: m.fn + "(" + name + ")", Got: harness.Result{Obs: figure(m.get(results[name]))}})
		}
		call := fmt.Sprintf("%s(%s) <= %s(roundrobin)/2", m.fn, sc.name, m.fn)
		if m.get(results[sc.name]) > m.get(results["roundrobin"])/2 {
			return fail(&harness.Failure{Kind: harness.Mismatch, Want: harness.Result{Obs: "true"}, Got: harness.Result{Obs: "false"}}, call)
		}
		done = append(done, harness.Done{Call: call, Got: harness.Result{Obs: "true"}})
	}
	return nil
}

// figure formats a measured wait with three significant digits, and
// whole numbers from 1,000 on (never in exponent notation).
func figure(x float64) string {
	if x >= 1000 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// learnerFrame returns file:line of the innermost frame in the learner's
// package while a panic unwinds, as the harness does for traces.
func learnerFrame() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		fr, more := frames.Next()
		if strings.HasPrefix(fr.File, pkg+"/") {
			return fmt.Sprintf("%s:%d", fr.File, fr.Line)
		}
		if !more {
			return ""
		}
	}
}

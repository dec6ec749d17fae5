// Package outcome grades a load-balancing policy by what it achieves: it
// runs the learner's balancer in the lesson's simulator next to random and
// round robin and requires clearly shorter waits. The exercises leastconn
// and twochoices name it as a support package, so both test programs
// share it.
package outcome

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/exercises/leastconn/sim"
	"github.com/kurs-course/kurs/internal/harness"
)

// Driver runs the measured-outcome tests (names starting "outcome/") itself
// and every other test as a trace.
type Driver struct {
	Traces harness.Traces
	// Name is how the reported calls name the learner's balancer.
	Name string
	// Learner makes the learner's balancer for n backends.
	Learner func(n int) sim.Balancer
}

// Run runs one hidden test.
func (d Driver) Run(t harness.Test, seed uint64, p *harness.Progress) *harness.Failure {
	if sc, ok := scenarios[t.Name]; ok {
		return d.outcome(sc, p)
	}
	return d.Traces.Run(t, seed, p)
}

// scenario is a measured-outcome test: the learner's balancer, random and
// round robin in the same simulated cluster, with the same requests.
type scenario struct{ cfg sim.Config }

// backends is the size of the simulated cluster, as in the lesson.
const backends = 16

// base is the lesson's cluster, run shorter than for the lesson's figures
// so that a check stays fast: one run of 60,000 requests after a warm-up
// of 5,000. The seed is fixed, so the figures do not depend on --seed.
var base = sim.Config{Backends: backends, Sigma: 1, Requests: 65000, Warmup: 5000, Runs: 1, Seed: 7}

var scenarios = map[string]scenario{
	"outcome/load-95": {cfg: with(func(c *sim.Config) { c.Load = 0.95 })},
	"outcome/slow-backend": {cfg: with(func(c *sim.Config) {
		c.Load = 0.8
		c.Speed = make([]float64, backends)
		for i := range c.Speed {
			c.Speed[i] = 1
		}
		c.Speed[0] = 0.5 // backend 0 takes twice as long
	})},
}

func with(change func(*sim.Config)) sim.Config {
	c := base
	change(&c)
	return c
}

// outcome measures the learner's balancer and the two baselines and
// requires the learner's mean and 99th-percentile waits to be at most half
// of round robin's. The steps it reports read as Go expressions, so that
// they need no translation.
func (d Driver) outcome(sc scenario, p *harness.Progress) *harness.Failure {
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
				f = fail(&harness.Failure{Kind: harness.Panicked, Panic: fmt.Sprint(v), Frame: learnerFrame(d.Traces.Package)}, call)
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
		{d.Name, d.Learner},
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
		for _, name := range []string{"random", "roundrobin", d.Name} {
			done = append(done, harness.Done{Call: m.fn + "(" + name + ")", Got: harness.Result{Obs: figure(m.get(results[name]))}})
		}
		call := fmt.Sprintf("%s(%s) <= %s(roundrobin)/2", m.fn, d.Name, m.fn)
		if m.get(results[d.Name]) > m.get(results["roundrobin"])/2 {
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
func learnerFrame(pkg string) string {
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

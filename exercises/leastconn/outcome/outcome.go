// Package outcome grades a load-balancing policy by what it achieves: it
// runs the learner's balancer in the lesson's simulator next to random and
// round robin and requires clearly shorter waits. The exercises leastconn
// and twochoices name it as a support package, so both test programs
// share it.
//
// The learner's program runs the simulation with the learner's balancer
// and reports only the backend it picked for every request. The judge
// runs the same simulation again, with those picks, and measures the
// waits itself: a program that lies about its picks can only claim picks
// that balance well, which is what the exercise asks for.
package outcome

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/exercises/leastconn/sim"
	"github.com/kurs-course/kurs/internal/harness"
)

// Driver runs the measured-outcome tests (names starting "outcome/") itself
// and every other test as a trace.
type Driver struct {
	harness.Traces
	// Name is how the reported calls name the learner's balancer.
	Name string
	// Balancer makes the exercise's balancer for n backends, for the
	// simulator.
	Balancer func(n int) sim.Balancer
}

// Judge runs one hidden test in the judge.
func (d Driver) Judge(t harness.Test, seed uint64, l *harness.Learner) (*harness.Failure, error) {
	if sc, ok := scenarios[t.Name]; ok {
		return d.outcome(t.Name, sc, l)
	}
	return d.Traces.Judge(t, seed, l)
}

// Serve answers a request in the learner's program: a measurement is a
// simulation of the named scenario with the learner's balancer.
func (d Driver) Serve(req harness.Request, r *harness.Replier) {
	sc, ok := scenarios[req.Measure]
	if !ok {
		d.Traces.Serve(req, r)
		return
	}
	rec := &recorder{}
	value, frame, panicked := harness.Catch(d.Package, func() {
		_, _ = sim.Run(sc.cfg, func(n int) sim.Balancer { rec.b = d.Balancer(n); return rec })
	})
	claim := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(rec.picks)), ","), "[]")
	if panicked {
		claim += "\npanic\n" + value + "\n" + frame
	}
	r.Measured(claim)
}

// recorder passes the simulator's calls to the learner's balancer and
// remembers every pick.
type recorder struct {
	b     sim.Balancer
	picks []int
}

func (r *recorder) Pick(rnd *rand.Rand) int {
	i := r.b.Pick(rnd)
	r.picks = append(r.picks, i)
	return i
}

func (r *recorder) Done(i int) { r.b.Done(i) }

// replay is a balancer that picks what the learner's program claimed,
// in order; past the end of the claim it picks no backend at all.
type replay struct {
	picks *[]int
}

func (r replay) Pick(*rand.Rand) int {
	if len(*r.picks) == 0 {
		return -1
	}
	i := (*r.picks)[0]
	*r.picks = (*r.picks)[1:]
	return i
}

func (replay) Done(int) {}

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

// outcome asks the learner's program for its picks, measures them and the
// two baselines, and requires the learner's mean and 99th-percentile waits
// to be at most half of round robin's. The steps it reports read as Go
// expressions, so that they need no translation.
func (d Driver) outcome(name string, sc scenario, l *harness.Learner) (*harness.Failure, error) {
	l.Mark("", 0, 0)
	newArgs := []float64{backends}
	var done []harness.Done
	fail := func(f *harness.Failure, call string) *harness.Failure {
		f.New, f.Done, f.Step, f.Call = newArgs, done, len(done)+1, call
		return f
	}
	claim, err := l.Measure(name)
	if err != nil {
		return nil, err
	}
	picksText, panicText, panicked := strings.Cut(claim, "\npanic\n")
	var picks []int
	for _, f := range strings.Split(picksText, ",") {
		if f == "" {
			continue
		}
		i, err := strconv.Atoi(f)
		if err != nil {
			i = -1
		}
		picks = append(picks, i)
	}
	results := map[string]sim.Result{}
	for _, b := range []struct {
		name string
		nb   func(n int) sim.Balancer
	}{
		{"random", sim.NewRandom},
		{"roundrobin", sim.NewRoundRobin},
		{d.Name, func(int) sim.Balancer { return replay{&picks} }},
	} {
		call := "MeanWait(" + b.name + ")"
		res, err := sim.Run(sc.cfg, b.nb)
		if b.name == d.Name && panicked {
			// The frame is the last line; the value may span several.
			value, frame := panicText, ""
			if i := strings.LastIndex(panicText, "\n"); i >= 0 {
				value, frame = panicText[:i], panicText[i+1:]
			}
			return fail(&harness.Failure{Kind: harness.Panicked, Panic: value, Frame: frame}, call), nil
		}
		if e := (*sim.BadPickError)(nil); b.name == d.Name && asBadPick(err, &e) {
			done = append(done, harness.Done{Call: "Pick()", Got: harness.Result{Obs: strconv.Itoa(e.Backend)}})
			return fail(&harness.Failure{Kind: harness.Mismatch, Want: harness.Result{Obs: "true"}, Got: harness.Result{Obs: "false"}},
				fmt.Sprintf("0 <= %d && %d < %d", e.Backend, e.Backend, e.N)), nil
		}
		if err != nil {
			panic(err) // a mistake in the scenario, not in the learner's code
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
			return fail(&harness.Failure{Kind: harness.Mismatch, Want: harness.Result{Obs: "true"}, Got: harness.Result{Obs: "false"}}, call), nil
		}
		done = append(done, harness.Done{Call: call, Got: harness.Result{Obs: "true"}})
	}
	return nil, nil
}

func asBadPick(err error, target **sim.BadPickError) bool {
	e, ok := err.(*sim.BadPickError)
	if ok {
		*target = e
	}
	return ok
}

// figure formats a measured wait with three significant digits, and
// whole numbers from 1,000 on (never in exponent notation).
func figure(x float64) string {
	if x >= 1000 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

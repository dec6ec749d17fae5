package harness

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A stress test checks an exercise whose values are used from several
// goroutines at once. The learner's program runs the learner's code from
// many goroutines and reports only what it observed, as named numbers
// (Claims): the extremes of what the exercise's invariants bound, counted
// by the driver itself where it can, such as how many callers held a slot
// of a pool at once. The judge checks every number against its Bound, so
// a program that lies can claim only a run that keeps the invariants.
//
// A learner's program built with the race detector adds the number of
// data races the detector reported during the run (the claim "races"),
// which must be 0; the detector's report goes to the program's standard
// error. A program that lies can hide a race: the race detector teaches,
// the invariants grade.

// StressPrefix begins the name of every stress test in a suite.
const StressPrefix = "concurrent/"

// Claims are the named numbers a stress run reports. When goroutines'
// claims are merged, a name starting with "max" keeps the largest value,
// one starting with "min" the smallest, and every other adds up.
type Claims map[string]int64

// merge adds c's claims to m, as Claims says.
func (m Claims) merge(c Claims) {
	for k, v := range c {
		old, ok := m[k]
		switch {
		case !ok:
			m[k] = v
		case strings.HasPrefix(k, "max"):
			m[k] = max(old, v)
		case strings.HasPrefix(k, "min"):
			m[k] = min(old, v)
		default:
			m[k] = old + v
		}
	}
}

// Bound is one invariant of a stress test: claim Claim compared by Op
// ("<=", ">=" or "==") with Limit. A Bound without Op is shown, not
// checked.
type Bound struct {
	Claim string
	Op    string
	Limit int64
}

// Worker is one stress test's value, made in the learner's program.
type Worker interface {
	// Work runs one goroutine's share of the stress until stop is set,
	// and returns what the goroutine observed. It may set stop itself
	// once it has seen an invariant broken.
	Work(stop *atomic.Bool) Claims
	// Finish runs when every goroutine has returned, and returns what
	// is observed then.
	Finish() Claims
}

// Stress is a Driver for exercises whose values are used from several
// goroutines at once: tests whose name starts with StressPrefix are stress
// tests, every other test is a trace.
type Stress struct {
	Traces
	// Start makes the value of a stress test from the test's New
	// arguments, in the learner's program.
	Start func(args []float64) Worker
	// Bounds returns the invariants of a stress test, in the judge, in
	// the order they are shown and checked.
	Bounds func(args []float64) []Bound
}

// StressGoroutines is how many goroutines a stress test runs at once.
const StressGoroutines = 16

// The stress runs until the learner's program has used stressCPU of
// processor time, or stressWall has passed, whichever comes first: on a
// busy machine the program gets less of the processor, and a mistake
// shows only while it runs.
const (
	stressCPU  = 250 * time.Millisecond
	stressWall = time.Second
)

// stressProcs is how many goroutines run in parallel during a stress run:
// more threads than processors, so the operating system interrupts the
// learner's code at arbitrary points and another goroutine runs in
// between, even on a single processor.
func stressProcs() int { return max(8, runtime.NumCPU()) }

// stressReport is the learner's program's answer to a stress request.
type stressReport struct {
	Claims Claims
	Panic  string
	Frame  string
}

// encode writes the report as a claim: "panic" with the value and the
// frame, or "claims" with each claim's name and value, by name.
func (rep stressReport) encode() string {
	if rep.Panic != "" || rep.Frame != "" {
		return QuoteFields("panic", rep.Panic, rep.Frame)
	}
	fields := []string{"claims"}
	for _, k := range slices.Sorted(maps.Keys(rep.Claims)) {
		fields = append(fields, k, strconv.FormatInt(rep.Claims[k], 10))
	}
	return QuoteFields(fields...)
}

// decodeStress reads what encode wrote.
func decodeStress(claim string) (stressReport, bool) {
	f, ok := UnquoteFields(claim)
	switch {
	case !ok || len(f) == 0:
		return stressReport{}, false
	case f[0] == "panic" && len(f) == 3:
		return stressReport{Panic: f[1], Frame: f[2]}, true
	case f[0] != "claims" || len(f)%2 != 1:
		return stressReport{}, false
	}
	rep := stressReport{Claims: Claims{}}
	for i := 1; i < len(f); i += 2 {
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return stressReport{}, false
		}
		rep.Claims[f[i]] = v
	}
	return rep, true
}

// stressMeasure is the measurement name of a stress run on New(args).
func stressMeasure(args []float64) string {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = strconv.FormatFloat(a, 'g', -1, 64)
	}
	return strings.TrimSpace("stress " + strings.Join(s, " "))
}

// stressCall is how a report names a claim of a run.
func stressCall(claim string) string {
	return fmt.Sprintf("%s(%d goroutines)", claim, StressGoroutines)
}

// StressClaim splits a step call of a stress run, as Judge names it
// ("maxInUse(16 goroutines) ≤ 1"), into its claim ("maxInUse") and the
// bound after it ("≤ 1", "" for a claim without one), so that a report can
// name the claim in the reader's language. ok is false for any other call.
func StressClaim(call string) (claim, bound string, ok bool) {
	claim, rest, ok := strings.Cut(call, fmt.Sprintf("(%d goroutines)", StressGoroutines))
	if !ok || claim == "" || strings.ContainsAny(claim, "( ") {
		return "", "", false
	}
	return claim, strings.TrimSpace(rest), true
}

// Judge runs one test in the judge.
func (d Stress) Judge(t Test, seed uint64, l *Learner) (*Failure, error) {
	if !strings.HasPrefix(t.Name, StressPrefix) {
		return d.Traces.Judge(t, seed, l)
	}
	// A timeout names the stress run as the step that hangs.
	run := Trace{New: t.New, Steps: []Step{{Call: "stress", Args: []float64{StressGoroutines}}}}
	l.Mark("", 0, 0)
	l.begin([]Trace{run}, 0)
	l.mu.Lock()
	l.partial.Results = []Result{{}}
	l.mu.Unlock()
	claim, err := l.Measure(stressMeasure(t.New))
	l.begin(nil, 0)
	if err != nil {
		return nil, err
	}
	var done []Done
	fail := func(f *Failure, call string) *Failure {
		f.New, f.Done, f.Step, f.Call = t.New, done, len(done)+1, call
		return f
	}
	rep, ok := decodeStress(claim)
	if !ok {
		return fail(&Failure{Kind: Mismatch, Got: Result{Obs: clip(claim)}}, FormatCall("stress", run.Steps[0].Args)), nil
	}
	if rep.Panic != "" || rep.Frame != "" {
		return fail(&Failure{Kind: Panicked, Panic: clip(rep.Panic), Frame: clip(rep.Frame)}, FormatCall("stress", run.Steps[0].Args)), nil
	}
	// A program built without the race detector claims no races.
	bounds := append(d.Bounds(t.New), Bound{Claim: "races", Op: "==", Limit: 0})
	for _, b := range bounds {
		v, ok := rep.Claims[b.Claim]
		if !ok {
			continue // nothing observed, e.g. no slot was ever taken
		}
		// Each number with the bound it keeps, "maxInUse(16 goroutines)
		// ≤ 5 → 4"; one that breaks it shows the number observed against
		// the bound, not a comparison that came out false.
		call, got := stressCall(b.Claim), strconv.FormatInt(v, 10)
		if b.Op != "" {
			call += " " + boundText(b)
		}
		if b.Op == "" || holds(v, b.Op, b.Limit) {
			done = append(done, Done{Call: call, Got: Result{Obs: got}})
			continue
		}
		return fail(&Failure{Kind: Mismatch, Want: Result{Obs: strconv.FormatInt(b.Limit, 10)}, Got: Result{Obs: got}}, call), nil
	}
	return nil, nil
}

// boundText writes a bound as a reader reads it: "≤ 5".
func boundText(b Bound) string {
	op := map[string]string{"<=": "≤", ">=": "≥", "==": "="}[b.Op]
	return fmt.Sprintf("%s %d", op, b.Limit)
}

func holds(v int64, op string, limit int64) bool {
	switch op {
	case "<=":
		return v <= limit
	case ">=":
		return v >= limit
	case "==":
		return v == limit
	}
	return false
}

// Serve answers a request in the learner's program: a stress request runs
// the stress, every other request is traces.
func (d Stress) Serve(req Request, r *Replier) {
	rest, ok := strings.CutPrefix(req.Measure, "stress")
	if !ok || req.Measure == "" {
		d.Traces.Serve(req, r)
		return
	}
	var args []float64
	for _, f := range strings.Fields(rest) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) {
			r.Measured(stressReport{}.encode())
			return
		}
		args = append(args, x)
	}
	r.Measured(d.stress(args).encode())
}

// stress runs one stress test in the learner's program.
func (d Stress) stress(args []float64) stressReport {
	var rep stressReport
	var w Worker
	if value, frame, panicked := Catch(d.Package, func() { w = d.Start(args) }); panicked {
		return stressReport{Panic: value, Frame: frame}
	}
	procs := runtime.GOMAXPROCS(stressProcs())
	defer runtime.GOMAXPROCS(procs)
	races := raceErrors()

	var (
		stop   atomic.Bool
		wg     sync.WaitGroup
		mu     sync.Mutex
		claims = Claims{}
	)
	for range StressGoroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var c Claims
			value, frame, panicked := Catch(d.Package, func() { c = w.Work(&stop) })
			stop.Store(true)
			mu.Lock()
			defer mu.Unlock()
			if panicked && rep.Panic == "" && rep.Frame == "" {
				rep.Panic, rep.Frame = value, frame
			}
			claims.merge(c)
		}()
	}
	deadline := time.Now().Add(stressWall)
	cpu := cpuTime()
	for !stop.Load() {
		time.Sleep(2 * time.Millisecond)
		if time.Now().After(deadline) || cpuTime()-cpu >= stressCPU {
			stop.Store(true)
		}
	}
	wg.Wait()
	if rep.Panic != "" || rep.Frame != "" {
		return rep
	}
	var c Claims
	if value, frame, panicked := Catch(d.Package, func() { c = w.Finish() }); panicked {
		return stressReport{Panic: value, Frame: frame}
	}
	claims.merge(c)
	if n := raceErrors(); n >= 0 {
		claims["races"] = int64(n - races)
	}
	rep.Claims = claims
	return rep
}

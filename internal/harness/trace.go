package harness

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
)

// Subject is one value under test, the learner's or the reference's.
type Subject interface {
	// Do performs call with args and returns its result formatted as a
	// string ("" for methods without a result).
	Do(call string, args []float64) string
	// Observe returns what is looked at after every call, e.g. the state.
	Observe() string
}

// Traces is a Driver for exercises graded by traces of calls: fixed traces
// from the suite and random ones compared step by step with the reference.
type Traces struct {
	// Observe names the observation after each call, e.g. "State()".
	Observe string
	// Package is the import path prefix of the learner's package, used to
	// find the learner's frame in a panic.
	Package string
	// New makes the learner's (ref false) or the reference's value.
	New func(ref bool, args []float64) Subject
	// Random returns a random trace.
	Random func(r *rand.Rand) Trace
}

// Run runs one test.
func (d Traces) Run(t Test, seed uint64, p *Progress) *Failure {
	if t.Random == 0 {
		p.Trace(d.Observe, 0, 0)
		return d.check(Trace{New: t.New, Steps: t.Steps}, p)
	}
	for i := range t.Random {
		tr := d.Random(rand.New(rand.NewPCG(seed, uint64(i))))
		p.Trace(d.Observe, seed, i)
		f := d.check(tr, p)
		if f == nil {
			continue
		}
		if f.Kind == Mismatch || f.Kind == Panicked {
			f = d.shrink(tr, f, p)
		}
		f.Seed, f.Index, f.Original = seed, i, len(tr.Steps)
		return f
	}
	return nil
}

// check runs tr on the learner's and the reference's value and returns the
// first step where they differ.
func (d Traces) check(tr Trace, p *Progress) *Failure {
	newCall := FormatCall("New", tr.New)
	fail := func(kind string, step int, call string, done []Done) *Failure {
		return &Failure{Kind: kind, New: tr.New, Done: done, Step: step, Call: call, Observe: d.Observe}
	}
	p.At(tr.New, nil, 0, newCall)
	ref := d.New(true, tr.New)
	var learner Subject
	if pv, frame := d.guard(func() { learner = d.New(false, tr.New) }); pv != "" {
		f := fail(Panicked, 0, newCall, nil)
		f.Panic, f.Frame = pv, frame
		return f
	}
	want := Result{Obs: ref.Observe()}
	var got Result
	if pv, frame := d.guard(func() { got.Obs = learner.Observe() }); pv != "" {
		f := fail(Panicked, 0, d.Observe, nil)
		f.Panic, f.Frame = pv, frame
		return f
	}
	if !same(got, want) {
		f := fail(Mismatch, 0, newCall, nil)
		f.Want, f.Got = want, got
		return f
	}
	var done []Done
	for i, s := range tr.Steps {
		call := FormatCall(s.Call, s.Args)
		p.At(tr.New, done, i+1, call)
		want := Result{Ret: ref.Do(s.Call, s.Args), Obs: ref.Observe()}
		if s.Want != "" {
			want.Ret = s.Want
		}
		if s.Obs != "" {
			want.Obs = s.Obs
		}
		var got Result
		pv, frame := d.guard(func() {
			got.Ret = learner.Do(s.Call, s.Args)
			got.Obs = learner.Observe()
		})
		if pv != "" {
			f := fail(Panicked, i+1, call, done)
			f.Panic, f.Frame, f.Want = pv, frame, want
			return f
		}
		if !same(got, want) {
			f := fail(Mismatch, i+1, call, done)
			f.Want, f.Got = want, got
			return f
		}
		done = append(done, Done{Call: call, Got: got})
	}
	return nil
}

// shrink looks for a shorter trace that still fails, by dropping steps, so
// the learner sees a trace short enough to follow by hand.
func (d Traces) shrink(tr Trace, f *Failure, p *Progress) *Failure {
	cut := func(tr Trace, f *Failure) Trace {
		if f.Step < len(tr.Steps) {
			tr.Steps = tr.Steps[:max(f.Step, 0)]
		}
		return tr
	}
	tr = cut(tr, f)
	for changed := true; changed; {
		changed = false
		for size := max(len(tr.Steps)/2, 1); size >= 1; size /= 2 {
			for start := 0; start+size <= len(tr.Steps); {
				cand := Trace{New: tr.New, Steps: append(append([]Step(nil), tr.Steps[:start]...), tr.Steps[start+size:]...)}
				if g := d.check(cand, p); g != nil && g.Kind == f.Kind {
					tr, f, changed = cut(cand, g), g, true
					continue
				}
				start += size
			}
		}
	}
	return f
}

// guard runs fn and turns a panic into its value and the learner's frame.
func (d Traces) guard(fn func()) (panicValue, frame string) {
	defer func() {
		if v := recover(); v != nil {
			panicValue = fmt.Sprint(v)
			if panicValue == "" {
				panicValue = fmt.Sprintf("%#v", v)
			}
			frame = learnerFrame(d.Package)
		}
	}()
	fn()
	return "", ""
}

// learnerFrame returns file:line of the innermost frame in the learner's
// package.
func learnerFrame(pkg string) string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		fr, more := frames.Next()
		if pkg != "" && strings.HasPrefix(fr.File, pkg+"/") {
			return fmt.Sprintf("%s:%d", fr.File, fr.Line)
		}
		if !more {
			return ""
		}
	}
}

// same reports whether got matches want; numbers match within 1e-9.
func same(got, want Result) bool {
	return sameValue(got.Ret, want.Ret) && sameValue(got.Obs, want.Obs)
}

func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil || math.IsNaN(x) || math.IsNaN(y) {
		return false
	}
	return math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
}

// FormatCall formats a call as Go source, e.g. "Allow(9)".
func FormatCall(name string, args []float64) string {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = Float(a)
	}
	return name + "(" + strings.Join(s, ", ") + ")"
}

// Float formats x briefly, rounded to nine decimals.
func Float(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	r := math.Round(x*1e9) / 1e9
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// Bool formats b as Go does.
func Bool(b bool) string { return strconv.FormatBool(b) }

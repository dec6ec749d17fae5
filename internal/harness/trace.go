package harness

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
)

// Subject is one value under test: the learner's in the learner's
// program, the reference's in the judge.
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
	// Package is the import path of the exercise's package, used to find
	// the learner's frame in a panic.
	Package string
	// New makes a value of the exercise's package: the learner's in the
	// learner's program, the reference's in the judge.
	New func(args []float64) Subject
	// Random returns a random trace; it runs in the judge only.
	Random func(r *rand.Rand) Trace
}

// Random traces go to the learner's program in requests of growing size:
// a first failure is found after few traces, and a long run of passing
// ones costs few round trips.
var chunks = []int{8, 32, 128, 256}

// Judge runs one test in the judge.
func (d Traces) Judge(t Test, seed uint64, l *Learner) (*Failure, error) {
	if t.Random == 0 {
		l.Mark(d.Observe, 0, 0)
		return d.run(Trace{New: t.New, Steps: t.Steps}, l)
	}
	for base, k := 0, 0; base < t.Random; k++ {
		n := min(chunks[min(k, len(chunks)-1)], t.Random-base)
		trs := make([]Trace, n)
		for i := range trs {
			trs[i] = d.RandomTrace(seed, base+i)
		}
		l.Mark(d.Observe, seed, base)
		var f *Failure
		at := 0
		err := l.Run(trs, func(i int, r Reply) bool {
			if g := d.compare(trs[i], r); g != nil {
				f, at = g, i
				return true
			}
			return false
		})
		if f != nil {
			tr := trs[at]
			if err == nil && (f.Kind == Mismatch || f.Kind == Panicked) {
				f = d.shrink(tr, f, l)
			}
			f.Seed, f.Index, f.Original = seed, base+at, len(tr.Steps)
			return f, nil
		}
		if err != nil {
			return nil, err
		}
		base += n
	}
	return nil, nil
}

// RandomTrace returns random trace number i of seed.
func (d Traces) RandomTrace(seed uint64, i int) Trace {
	return d.Random(rand.New(rand.NewPCG(seed, uint64(i))))
}

// HasRandom reports whether the driver makes random traces.
func (d Traces) HasRandom() bool { return d.Random != nil }

// run runs one trace on the learner's code and compares.
func (d Traces) run(tr Trace, l *Learner) (*Failure, error) {
	var f *Failure
	err := l.Run([]Trace{tr}, func(_ int, r Reply) bool {
		f = d.compare(tr, r)
		return true
	})
	if err != nil && f == nil {
		return nil, err
	}
	return f, nil
}

// compare replays tr on the reference and returns the first step where the
// learner's reply differs.
func (d Traces) compare(tr Trace, rep Reply) *Failure {
	// Formatted only for a failure: most traces pass.
	newCall := func() string { return FormatCall("New", tr.New) }
	fail := func(kind string, step int, call string, done []Done) *Failure {
		return &Failure{Kind: kind, New: tr.New, Done: done, Step: step, Call: call, Observe: d.Observe}
	}
	panicked := func(step int, call string, done []Done, want Result) *Failure {
		if rep.InObserve {
			call = d.Observe
		}
		f := fail(Panicked, step, call, done)
		f.Panic, f.Frame, f.Want = rep.Panic, rep.Frame, want
		return f
	}
	ref := d.New(tr.New)
	want := Result{Obs: ref.Observe()}
	if rep.Panicked && rep.PanicStep == 0 {
		return panicked(0, newCall(), nil, Result{})
	}
	if len(rep.Results) == 0 {
		return fail(Mismatch, 0, newCall(), nil)
	}
	if got := rep.Results[0]; !same(got, want) {
		f := fail(Mismatch, 0, newCall(), nil)
		f.Want, f.Got = want, got
		return f
	}
	fail = func(kind string, step int, call string, done []Done) *Failure {
		init := rep.Results[0]
		return &Failure{Kind: kind, New: tr.New, Init: &init, Done: done, Step: step, Call: call, Observe: d.Observe}
	}
	before := func(i int) []Done { // the steps before step i+1, as done
		var done []Done
		for j, s := range tr.Steps[:i] {
			done = append(done, Done{Call: FormatCall(s.Call, s.Args), Got: rep.Results[j+1]})
		}
		return done
	}
	for i, s := range tr.Steps {
		want := Result{Ret: ref.Do(s.Call, s.Args), Obs: ref.Observe()}
		if s.Want != "" {
			want.Ret = s.Want
		}
		if s.Obs != "" {
			want.Obs = s.Obs
		}
		if rep.Panicked && rep.PanicStep == i+1 {
			return panicked(i+1, FormatCall(s.Call, s.Args), before(i), want)
		}
		if i+1 >= len(rep.Results) {
			f := fail(Mismatch, i+1, FormatCall(s.Call, s.Args), before(i))
			f.Want = want
			return f
		}
		if got := rep.Results[i+1]; !same(got, want) {
			f := fail(Mismatch, i+1, FormatCall(s.Call, s.Args), before(i))
			f.Want, f.Got = want, got
			return f
		}
	}
	return nil
}

// shrink looks for a shorter trace that still fails, by dropping steps, so
// the learner sees a trace short enough to follow by hand. Each candidate
// is one request to the learner's program; if it stops answering, the
// shortest failure found so far stands.
func (d Traces) shrink(tr Trace, f *Failure, l *Learner) *Failure {
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
				g, err := d.run(cand, l)
				if err != nil {
					return f
				}
				if g != nil && g.Kind == f.Kind {
					tr, f, changed = cut(cand, g), g, true
					continue
				}
				start += size
			}
		}
	}
	return f
}

// Serve runs the requested traces on the learner's code and reports what
// every call returned and left to observe, or where it panicked.
func (d Traces) Serve(req Request, r *Replier) {
	for ti, tr := range req.Traces {
		var s Subject
		if pv, frame, ok := Catch(d.Package, func() { s = d.New(tr.New) }); ok {
			r.Panicked(ti, 0, pv, frame, false)
			continue
		}
		var obs string
		if pv, frame, ok := Catch(d.Package, func() { obs = s.Observe() }); ok {
			r.Panicked(ti, 0, pv, frame, true)
			continue
		}
		r.Step(ti, 0, "", obs)
		for si, st := range tr.Steps {
			var ret string
			if pv, frame, ok := Catch(d.Package, func() { ret = s.Do(st.Call, st.Args) }); ok {
				r.Panicked(ti, si+1, pv, frame, false)
				break
			}
			if pv, frame, ok := Catch(d.Package, func() { obs = s.Observe() }); ok {
				r.Panicked(ti, si+1, pv, frame, true)
				break
			}
			r.Step(ti, si+1, ret, obs)
		}
	}
}

// Catch runs fn and reports whether it panicked, with the panic's value
// as printed and the innermost frame in pkg. A value that prints as
// nothing is shown by its type, so a panic is never mistaken for a
// result.
func Catch(pkg string, fn func()) (value, frame string, panicked bool) {
	defer func() {
		if v := recover(); v != nil || panicked {
			value = fmt.Sprint(v)
			if value == "" {
				value = fmt.Sprintf("%#v", v)
			}
			if value == "" {
				value = fmt.Sprintf("%T", v)
			}
			frame = learnerFrame(pkg)
			panicked = true
		}
	}()
	panicked = true
	fn()
	panicked = false
	return "", "", false
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
	return SameValue(got.Ret, want.Ret) && SameValue(got.Obs, want.Obs)
}

// SameValue reports whether two values are equal as the judge compares
// them: the same text, or numbers within a billionth; NaN equals nothing.
func SameValue(a, b string) bool {
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

package report

import (
	"slices"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
)

// Signature returns how the code behind res behaves under ex's hidden
// tests, as far as res tells: the failing tests and, for each failing
// fixed trace, its first departure. It needs nothing but the result, so
// naming a misconception costs no build or run.
func Signature(ex *course.Exercise, res *checker.Result) *course.Signature {
	fixed := fixedTests(ex)
	s := &course.Signature{Fail: []string{}}
	for i := range res.Tests {
		t := &res.Tests[i]
		if t.Status == checker.Pass {
			continue
		}
		s.Fail = append(s.Fail, t.Name)
		if !fixed[t.Name] || t.Failure == nil || t.Failure.Seed != 0 {
			continue
		}
		switch f := t.Failure; f.Kind {
		case harness.Mismatch:
			setStep(s, t.Name, course.Departure{Kind: f.Kind, Step: f.Step, Want: f.Want, Got: f.Got})
		case harness.Panicked, harness.Timeout:
			// The values of a panic (its message, the learner's frame)
			// differ from one learner's code to the next; where it
			// happened does not.
			setStep(s, t.Name, course.Departure{Kind: f.Kind, Step: f.Step})
		}
	}
	return s
}

func setStep(s *course.Signature, name string, d course.Departure) {
	if s.Steps == nil {
		s.Steps = map[string]course.Departure{}
	}
	s.Steps[name] = d
}

// fixedTests returns the names of ex's fixed traces: the tests whose every
// step the suite states, so that any two programs that fail one are
// compared on the same calls.
func fixedTests(ex *course.Exercise) map[string]bool {
	fixed := map[string]bool{}
	if ex == nil {
		return fixed
	}
	for _, t := range ex.Suite.Tests {
		if t.Random == 0 && len(t.Steps) > 0 {
			fixed[t.Name] = true
		}
	}
	return fixed
}

// Recognition is a misconception recognised in a learner's result.
type Recognition struct {
	Misconception *course.Misconception
	// Maybe reports a partial match: the learner's code departs on every
	// fixed trace as the misconception does, but Others (tests without a
	// fixed trace: random traces, stress, measured outcomes) differ, or
	// the misconception fails no fixed trace at all.
	Maybe  bool
	Others []string
}

// Recognise returns the misconception of ex whose recorded signature res
// shows, or nil. It prefers precision to recall: a result that passes is
// never named, nor one that departs on any fixed trace other than the
// misconception does (another step, other values, another test failing
// or passing). A result that agrees on every fixed trace but not on the
// other tests is at most a Maybe, as is a misconception that fails no
// fixed trace.
func Recognise(ex *course.Exercise, res *checker.Result) *Recognition {
	if ex == nil || res == nil || res.Status != checker.Fail {
		return nil
	}
	list, _ := ex.Misconceptions()
	if len(list) == 0 {
		return nil
	}
	fixed := fixedTests(ex)
	sig := Signature(ex, res)
	var maybe *Recognition
	for _, m := range list {
		ms := m.Signature
		if ms == nil || !sameOnFixed(sig, ms, fixed) {
			continue
		}
		others := differentOthers(sig, ms, fixed)
		if len(others) == 0 && failsFixed(ms, fixed) {
			return &Recognition{Misconception: m}
		}
		if maybe == nil {
			maybe = &Recognition{Misconception: m, Maybe: true, Others: others}
		}
	}
	return maybe
}

// sameOnFixed reports whether two signatures agree on every fixed trace:
// both pass it, or both fail it with the same departure.
func sameOnFixed(a, b *course.Signature, fixed map[string]bool) bool {
	for name := range fixed {
		fa, fb := slices.Contains(a.Fail, name), slices.Contains(b.Fail, name)
		if fa != fb {
			return false
		}
		if !fa {
			continue
		}
		da, oka := a.Steps[name]
		db, okb := b.Steps[name]
		if oka != okb || oka && !da.Same(db) {
			return false
		}
	}
	return true
}

// differentOthers returns the tests without a fixed trace that one of the
// signatures fails and the other does not.
func differentOthers(a, b *course.Signature, fixed map[string]bool) []string {
	var out []string
	for _, n := range a.Fail {
		if !fixed[n] && !slices.Contains(b.Fail, n) {
			out = append(out, n)
		}
	}
	for _, n := range b.Fail {
		if !fixed[n] && !slices.Contains(a.Fail, n) {
			out = append(out, n)
		}
	}
	return out
}

func failsFixed(s *course.Signature, fixed map[string]bool) bool {
	for _, n := range s.Fail {
		if fixed[n] {
			return true
		}
	}
	return false
}

// Named is a misconception named in an explanation, in the learner's
// language.
type Named struct {
	ID    string
	Title string
	// Explanation says, in Markdown, what the learner probably believes
	// and why it breaks.
	Explanation string
	// Maybe reports a partial match (see Recognition); Reason then says
	// why it is not certain.
	Maybe  bool
	Reason string
	// Line names it in one line: "Likely misconception: …", or "Might be
	// the misconception: …" with the reason.
	Line string
}

// NameMisconception returns the misconception of ex that res shows, in p's
// language, or nil (see Recognise).
func NameMisconception(p *i18n.Printer, ex *course.Exercise, res *checker.Result) *Named {
	r := Recognise(ex, res)
	if r == nil {
		return nil
	}
	m := r.Misconception
	n := &Named{ID: m.ID, Title: m.Title.In(p.Lang()), Explanation: m.Explanation.In(p.Lang()), Maybe: r.Maybe}
	if !r.Maybe {
		n.Line = p.T("misconception.named", "Title", n.Title)
		return n
	}
	if len(r.Others) == 0 {
		n.Reason = p.T("misconception.maybe_random")
	} else {
		labels := make([]string, len(r.Others))
		for i, name := range r.Others {
			labels[i] = TestLabel(p, ex, name)
		}
		n.Reason = p.T("misconception.maybe_others", "Tests", strings.Join(labels, "; "))
	}
	n.Line = p.T("misconception.maybe", "Title", n.Title) + " " + n.Reason
	return n
}

// misconceptionOf returns the misconception that g's result shows, in p's
// language, or nil. An untouched skeleton shows none, whatever its result:
// nobody has tried yet. Every explanation and format names a misconception
// through it, so that this rule is applied in one place.
func misconceptionOf(p *i18n.Printer, g Graded) *Named {
	if g.Untouched {
		return nil
	}
	return NameMisconception(p, g.Exercise, g.Result)
}

// nameMisconception adds the line that names the misconception of a
// failing exercise to the text of its first failing testcase, where a CI's
// test report shows the first difference (see misconceptionOf).
func nameMisconception(p *i18n.Printer, g Graded, cases []junitCase) {
	n := misconceptionOf(p, g)
	if n == nil {
		return
	}
	for i := range cases {
		if f := cases[i].Failure; f != nil {
			f.Text += "\n" + n.Line
			return
		}
	}
}

// given returns the option a wrong quiz answer of the quiz ex chose, by
// its letter, or an answer that is no option as the learner wrote it (see
// quizAnswer): the caller bounds and escapes it.
func given(ex *course.Exercise, t *checker.Test) string {
	if t.Status == checker.Pass || t.Failure == nil || t.Failure.Kind != harness.Quiz {
		return ""
	}
	return quizAnswer(ex, t.Failure.Case, t.Failure.Given)
}

package explain

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
// fixed trace, its first departure; for the stress tests, only whether
// the race detector found a race, or one failed while every other test
// passed, since which of them fail depends on how the goroutines happened
// to be scheduled. It needs
// nothing but the result, so naming a misconception costs no build or
// run.
func Signature(ex *course.Exercise, res *checker.Result) *course.Signature {
	fixed, stress := fixedTests(ex), StressTests(ex)
	s := &course.Signature{Fail: []string{}, Races: len(res.Races) > 0, RacyReads: racyReads(res.Races)}
	stressFailed := false
	for i := range res.Tests {
		t := &res.Tests[i]
		if t.Status == checker.Pass {
			continue
		}
		if stress[t.Name] {
			stressFailed = true
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
	// Code that already fails with one goroutine may or may not fail
	// under several, as the scheduler has it: its stress says nothing.
	s.Stress = s.Races || stressFailed && len(s.Fail) == 0
	return s
}

// racyReads reports whether every race in races has a read by a
// function that writes in none of them: code whose writers take a lock
// and whose reader does not (see course.Signature.RacyReads), unlike
// code without a lock, whose writers also race with one another.
func racyReads(races []checker.Race) bool {
	writers := map[string]bool{}
	for _, r := range races {
		for _, a := range r.Accesses {
			if a.Write && len(a.Frames) > 0 {
				writers[a.Frames[0].Function] = true
			}
		}
	}
	for _, r := range races {
		reader := false
		for _, a := range r.Accesses {
			if !a.Write && len(a.Frames) > 0 && !writers[a.Frames[0].Function] {
				reader = true
			}
		}
		if !reader {
			return false
		}
	}
	return len(races) > 0
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

// StressTests returns the names of ex's stress tests: the tests named
// concurrent/... that state no steps, whose goroutines the scheduler
// interleaves differently on every run. (A concurrent/... test with steps
// is a fixed trace whose calls overlap as the suite says.)
func StressTests(ex *course.Exercise) map[string]bool {
	stress := map[string]bool{}
	if ex == nil {
		return stress
	}
	for _, t := range ex.Suite.Tests {
		if strings.HasPrefix(t.Name, harness.StressPrefix) && len(t.Steps) == 0 && t.Random == 0 {
			stress[t.Name] = true
		}
	}
	return stress
}

// Recognition is a misconception recognised in a learner's result.
type Recognition struct {
	Misconception *course.Misconception
	// Maybe reports a partial match, said as unsure: the learner's code
	// departs on every fixed trace as the misconception does, but Others
	// (tests without a fixed trace: random traces, measured outcomes)
	// differ, or the misconception fails no fixed trace at all; or, when
	// More is set, the code departs exactly as the misconception does on
	// every fixed trace the misconception fails, and fails More, other
	// fixed traces, too: the mistake and at least one more.
	Maybe  bool
	Others []string
	More   []string
}

// Thresholds of the partial match with more failing tests (Recognition.
// More), set on the corpus of wrong solutions in checker/corpus and
// stated in docs/authoring.md: the misconception must fail at least
// minShared fixed traces, all of which the learner's code departs on
// exactly as it does, and those must be at least half of the learner's
// failing fixed traces.
const (
	minShared = 2
)

// Recognise returns the misconception of ex that res shows, or nil. It
// prefers precision to recall: a result that passes is never named, and
// silence is better than a wrong name.
//
//   - Likely: the result departs on every fixed trace exactly as the
//     misconception does (the same tests fail, at the same step, with the
//     same values; the others pass), and fails the same other tests
//     (random traces), stress tests aside. A concurrency misconception,
//     whose code passes every test of a single goroutine, is likely when
//     the result too passes all of them and fails under several
//     goroutines, with a data race if the misconception has one and
//     without one if it has none, and with races only of an unguarded
//     reader exactly when the misconception's are (RacyReads): which
//     stress tests fail, and where, depends on scheduling, the race
//     detector's verdict does not.
//   - Maybe: the fixed traces agree but the other tests do not, or the
//     misconception fails no fixed trace; or the result shows the
//     misconception's every departure and more (see Recognition.More and
//     minShared). Two misconceptions that fit as well are named by
//     neither.
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
	var maybe, more []*Recognition
	bestShared := 0
	for _, m := range list {
		ms := m.Signature
		if ms == nil {
			continue
		}
		if len(ms.Fail) == 0 && ms.Stress {
			if len(sig.Fail) == 0 && sig.Stress && sig.Races == ms.Races && sig.RacyReads == ms.RacyReads {
				return &Recognition{Misconception: m}
			}
			continue
		}
		if sameOnFixed(sig, ms, fixed) {
			others := differentOthers(sig, ms, fixed)
			if len(others) == 0 && failsFixed(ms, fixed) {
				return &Recognition{Misconception: m}
			}
			maybe = append(maybe, &Recognition{Misconception: m, Maybe: true, Others: others})
			continue
		}
		if shared, extra, ok := covers(sig, ms, fixed); ok && shared >= minShared && shared >= len(extra) {
			r := &Recognition{Misconception: m, Maybe: true, More: extra}
			switch {
			case shared > bestShared:
				bestShared, more = shared, []*Recognition{r}
			case shared == bestShared:
				more = append(more, r)
			}
		}
	}
	if len(maybe) == 1 {
		return maybe[0]
	}
	if len(maybe) == 0 && len(more) == 1 {
		return more[0]
	}
	return nil
}

// covers reports whether the result a departs exactly as the
// misconception's signature b on every fixed trace b fails, and fails
// more fixed traces besides (extra); shared is how many b fails.
func covers(a, b *course.Signature, fixed map[string]bool) (shared int, extra []string, ok bool) {
	for name := range fixed {
		fa, fb := slices.Contains(a.Fail, name), slices.Contains(b.Fail, name)
		switch {
		case fb && !fa:
			return 0, nil, false
		case fb:
			da, oka := a.Steps[name]
			db, okb := b.Steps[name]
			if oka != okb || oka && !da.Same(db) {
				return 0, nil, false
			}
			shared++
		case fa:
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	return shared, extra, len(extra) > 0
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

// nameMisconception returns the misconception of ex that res shows, in p's
// language, or nil (see Recognise).
func nameMisconception(p *i18n.Printer, ex *course.Exercise, res *checker.Result) *Named {
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
	switch {
	case len(r.More) > 0:
		labels := make([]string, len(r.More))
		for i, name := range r.More {
			labels[i] = TestLabel(p, ex, name)
		}
		n.Reason = p.T("misconception.maybe_more", "Tests", strings.Join(labels, "; "))
	case len(r.Others) == 0:
		n.Reason = p.T("misconception.maybe_random")
	default:
		labels := make([]string, len(r.Others))
		for i, name := range r.Others {
			labels[i] = TestLabel(p, ex, name)
		}
		n.Reason = p.T("misconception.maybe_others", "Tests", strings.Join(labels, "; "))
	}
	n.Line = p.T("misconception.maybe", "Title", n.Title) + " " + n.Reason
	return n
}

// Given returns the option a wrong quiz answer of the quiz ex chose, by
// its letter, or an answer that is no option as the learner wrote it (see
// quizAnswer), for the documents that count the options chosen: the
// caller bounds and escapes it.
func Given(ex *course.Exercise, t *checker.Test) string {
	if t.Status == checker.Pass || t.Failure == nil || t.Failure.Kind != harness.Quiz {
		return ""
	}
	return quizAnswer(ex, t.Failure.Case, t.Failure.Given)
}

package workspace

import (
	"time"

	"github.com/kurs-course/kurs/internal/course"
)

// Statuses of a check as the progress file stores them; they are the
// checker's.
const (
	StatusPass  = "pass"
	StatusFail  = "fail"
	StatusError = "error"
)

// Outcome is what a check of one exercise found, as the progress keeps it.
type Outcome struct {
	Exercise string
	Status   string // StatusPass, StatusFail or StatusError
	Score    int
	MaxScore int
	// Untouched says the exercise's files were its skeleton, byte for
	// byte: a check of them says nothing of the learner's work, so a
	// failure leaves the exercise "not started" (see Record).
	Untouched bool
	// Files is the Digest of the files checked; "" when unknown.
	Files string
}

// Record stores the outcomes of checks as the learner's progress: each
// exercise's last check, and that it has passed, which is never forgotten.
// Every front end that checks a learner's code (kurs check, kurs watch, the
// web page) records through Record. A failing check of an untouched
// skeleton of an exercise that never passed forgets the last check
// instead: whatever checked it, an exercise the learner has not begun
// stays not started. (One that passed, then was reset, is "passed
// before, failing now" like any other failing code.)
//
// Record holds the lock on the workspace's state from reading the
// progress to writing it: two kurs processes recording at once, such as
// kurs serve and kurs watch, each keep the other's records.
func (w *Workspace) Record(outcomes ...Outcome) error {
	now := time.Now().UTC().Truncate(time.Second)
	return w.updateProgress(func(p *Progress) (bool, error) {
		for _, o := range outcomes {
			if ep, ok := p.Exercises[o.Exercise]; o.Untouched && o.Status != StatusPass && (!ok || !ep.Passed) {
				if ok {
					ep.Status, ep.Score, ep.Checked, ep.Files = "", 0, time.Time{}, ""
				}
				continue
			}
			ep := p.Of(o.Exercise)
			ep.Status, ep.Score, ep.MaxScore, ep.Checked, ep.Files = o.Status, o.Score, o.MaxScore, now, o.Files
			ep.Passed = ep.Passed || o.Status == StatusPass
			ep.Best = max(ep.Best, o.Score)
		}
		return true, nil
	})
}

// State is where a learner stands on one exercise.
type State string

// States of an exercise. A pass is remembered: an exercise that passed
// once is PassedBefore while its code fails now, and PassedUnchecked after
// a reset, a restore or an edit, until the next check.
const (
	NotStarted      State = "not_started" // never checked (or reset before it passed)
	Failing         State = "failing"     // checked, and never passed
	Passed          State = "passed"      // the last check passed
	PassedBefore    State = "passed_before"
	PassedUnchecked State = "passed_unchecked"
	// Unchecked is an exercise that never passed and whose files are the
	// learner's, not its skeleton, but have not been checked since they
	// changed: a backup restored, code written or edited and not checked
	// yet.
	Unchecked State = "unchecked"
)

// HasPassed reports whether the state is one of an exercise that has
// passed at least once, which opens its reference solution.
func (s State) HasPassed() bool { return s == Passed || s == PassedBefore || s == PassedUnchecked }

// Mark is the state's mark in lists of exercises, in the terminal and on
// the page alike: ✓ for code that passed when last checked, ✗ for code
// that failed, · for code no check has judged.
func (s State) Mark() string {
	switch s {
	case Passed, PassedUnchecked:
		return "✓"
	case Failing, PassedBefore:
		return "✗"
	}
	return "·"
}

// State returns where the learner stands on exercise id.
func (p *Progress) State(id string) State {
	ep := p.Exercises[id]
	switch {
	case ep == nil:
		return NotStarted
	case ep.Status == StatusPass:
		return Passed
	case ep.Passed && ep.Status == "":
		return PassedUnchecked
	case ep.Passed:
		return PassedBefore
	case ep.Status == "":
		return NotStarted
	}
	return Failing
}

// StateOf returns where the learner stands on ex by the progress p and
// the exercise's files: p.State, unless the files changed since the last
// check, which then says nothing of them (PassedUnchecked for an exercise
// that passed once, else Unchecked); and an exercise whose last check was
// forgotten or never made is NotStarted only while its files are its
// skeleton (or gone), and Unchecked once they are the learner's. kurs
// check decides what is begun by the same comparison.
func (w *Workspace) StateOf(p *Progress, ex *course.Exercise) State {
	st := p.State(ex.ID)
	if ep := p.Exercises[ex.ID]; ep != nil && ep.Files != "" && ep.Status != "" && w.Digest(ex.ID) != ep.Files {
		if st.HasPassed() {
			return PassedUnchecked
		}
		return Unchecked
	}
	if st != NotStarted {
		return st
	}
	mine, err := sourcesIfAny(w.ExerciseDir(ex.ID))
	if err != nil || len(mine) == 0 {
		return st
	}
	if u, err := w.Untouched(ex); err == nil && !u {
		return Unchecked
	}
	return st
}

// Points returns the points the learner has earned on exercise id: the
// best score of any check, so that a pass keeps its points when later
// code fails.
func (p *Progress) Points(id string) int {
	ep := p.Exercises[id]
	if ep == nil {
		return 0
	}
	best := max(ep.Best, ep.Score)
	if ep.Passed && ep.MaxScore > 0 {
		// Progress written before the best score was kept: a pass is
		// full marks.
		best = max(best, ep.MaxScore)
	}
	return best
}

// Hints returns the hints of ex in lang, else the English ones, which
// every exercise has.
func Hints(ex *course.Exercise, lang string) []string {
	if h := ex.Hints[lang]; len(h) > 0 {
		return h
	}
	return ex.Hints["en"]
}

// Hint is one of an exercise's hints.
type Hint struct {
	N, Total int    // this is hint N (1-based) of Total
	Text     string // Markdown
}

// Last reports whether h is the exercise's last hint.
func (h Hint) Last() bool { return h.N == h.Total }

// NextHint returns the hint after those the learner has seen of ex, in
// lang (else in English), and counts it as seen; after the last one it
// returns the last one again. Total is 0 when ex has no hints.
func (w *Workspace) NextHint(ex *course.Exercise, lang string) (Hint, error) {
	hints := Hints(ex, lang)
	if len(hints) == 0 {
		return Hint{}, nil
	}
	var h Hint
	err := w.updateProgress(func(p *Progress) (bool, error) {
		ep := p.Of(ex.ID)
		n := min(ep.HintsSeen+1, len(hints))
		h = Hint{N: n, Total: len(hints), Text: hints[n-1]}
		if n > ep.HintsSeen {
			ep.HintsSeen = n
			return true, nil
		}
		return false, nil
	})
	if err != nil {
		return Hint{}, err
	}
	return h, nil
}

// SeenHints returns the hints of ex the learner has seen so far, in lang
// (else in English).
func (p *Progress) SeenHints(ex *course.Exercise, lang string) []string {
	hints := Hints(ex, lang)
	if ep := p.Exercises[ex.ID]; ep != nil {
		return hints[:min(ep.HintsSeen, len(hints))]
	}
	return nil
}

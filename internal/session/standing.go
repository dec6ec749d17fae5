package session

import (
	"slices"
	"sync"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/workspace"
)

// Standing is where the learner stands on the course, as the progress said
// when it was read (and each exercise's files when its state is first
// asked for): each exercise's state and points, the
// totals, what comes next, whether a solution is open, the hints seen.
// Every front end (the page, kurs watch, list, lesson, hint) asks a
// Standing and only renders its answers, so that they never disagree.
type Standing struct {
	ws     *workspace.Workspace
	course *course.Course
	prog   *workspace.Progress

	// states are read from the files when first asked for: a page that
	// shows one exercise reads that exercise's files, not the course's.
	mu     sync.Mutex
	states map[string]workspace.State
}

// Standing reads where the learner stands now.
func (s *Session) Standing() (*Standing, error) { return ReadStanding(s.ws, s.course) }

// ReadStanding reads where the learner stands in ws on the course c.
func ReadStanding(ws *workspace.Workspace, c *course.Course) (*Standing, error) {
	prog, err := ws.Progress()
	if err != nil {
		return nil, err
	}
	return &Standing{ws: ws, course: c, prog: prog, states: make(map[string]workspace.State, len(c.Exercises))}, nil
}

// State returns where the learner stands on ex: not started, begun and
// unchecked, failing, passed, or passed before (see workspace.State).
func (st *Standing) State(ex *course.Exercise) workspace.State {
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.states[ex.ID]
	if !ok {
		s = st.ws.StateOf(st.prog, ex)
		st.states[ex.ID] = s
	}
	return s
}

// Passed reports whether ex has passed at least once. The progress alone
// says so: files changed since a pass make it "passed, not checked
// since", which has passed all the same.
func (st *Standing) Passed(ex *course.Exercise) bool { return st.prog.State(ex.ID).HasPassed() }

// Points returns the points earned on ex: the best score of any check.
func (st *Standing) Points(ex *course.Exercise) int { return st.prog.Points(ex.ID) }

// SolutionOpen reports whether the reference solution of ex may be shown:
// once the exercise has passed, even if its code fails now.
func (st *Standing) SolutionOpen(ex *course.Exercise) bool { return st.Passed(ex) }

// SeenHints returns the hints of ex the learner has seen, in lang (else in
// English), and how many hints it has in all.
func (st *Standing) SeenHints(ex *course.Exercise, lang string) (seen []string, total int) {
	return st.prog.SeenHints(ex, lang), len(workspace.Hints(ex, lang))
}

// Totals is the learner's progress across the course.
type Totals struct {
	Passed, Exercises int // exercises passed at least once, of all
	Score, Max        int // points earned, of all
}

// Totals returns the progress across the course.
func (st *Standing) Totals() Totals {
	var t Totals
	for _, ex := range st.course.Exercises {
		t.Exercises++
		if st.Passed(ex) {
			t.Passed++
		}
		t.Score += st.Points(ex)
		t.Max += ex.Points
	}
	return t
}

// Next returns what comes next: the first exercise of among, in the
// course's order, that has not passed yet and is not current (the one the
// learner is on, or nil); nil when there is none. among nil means the
// whole course. This is the one rule every front end follows: the page's
// "next exercise" and the overview's "continue here" take the whole
// course, kurs lesson shows the lesson of that exercise, and kurs watch
// takes the exercises it watches.
func (st *Standing) Next(among []*course.Exercise, current *course.Exercise) *course.Exercise {
	if among == nil {
		among = st.course.Exercises
	}
	for _, ex := range st.course.Exercises {
		if ex == current || !slices.Contains(among, ex) || st.Passed(ex) {
			continue
		}
		return ex
	}
	return nil
}

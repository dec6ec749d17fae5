package web

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/textsafe"
	"github.com/kurs-course/kurs/internal/try"
)

// The exercise page's "Try a trace" panel does what `kurs try` does: the
// learner types a trace, and the page shows the answers of the learner's
// saved code and of the reference step by step (package try). A try is
// an experiment: it records no progress and no result.

// tryView is the panel: the trace in its field and, once tried, what came
// of it.
type tryView struct {
	Trace string
	// Example is the start of the exercise's own first trace, for the
	// sentence that says how a trace is written.
	Example string
	// Tried reports that the trace was sent: one of the fields below says
	// what came of it.
	Tried bool
	// Error is the mistake in the trace, in the reader's language; Col is
	// its column, and Before, At and After are the trace around it.
	Error             string
	Col               int
	Before, At, After string
	// Problem says why the learner's code did not run.
	Problem string
	Rows    []tryRow
	Summary string
	Differs bool
}

// tryRow is one step with both answers, as the page shows it.
type tryRow struct {
	Step      string // empty for New
	Call      string
	Mine, Ref string
	Differs   bool
}

// around is how many characters of the trace the page shows on each side
// of a mistake.
const around = 40

// tryTrace runs the trace of the form on the learner's saved files and on
// the reference. The script gets the panel's result; a browser without
// script gets the whole page with it.
func (s *Server) tryTrace(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exerciseOf(w, r)
	if !ok {
		return
	}
	p := s.printer(w, r)
	if !try.Supported(ex) {
		s.message(w, r, http.StatusNotFound, p.T("web.try.unsupported", "Exercise", ex.Title.In(p.Lang())))
		return
	}
	st := s.exercises[ex.ID]
	// One try at a time per exercise: each builds two programs.
	if !st.trying.TryLock() {
		s.message(w, r, http.StatusConflict, p.T("web.try.busy"))
		return
	}
	defer st.trying.Unlock()
	v, err := s.tryView(r.Context(), p, ex, r.PostFormValue("trace"))
	if err != nil {
		if r.Context().Err() != nil {
			return // the page went away
		}
		s.logf("web.log.try", "Exercise", ex.ID, "Err", err)
		s.message(w, r, http.StatusInternalServerError, p.T("web.try.error", "Err", err))
		return
	}
	status := http.StatusOK
	if v.Error != "" {
		status = http.StatusUnprocessableEntity
	}
	if !wantsFragment(r) {
		s.renderExercise(w, r, ex, status, "layout", func(_ *i18n.Printer, d *exerciseData) { d.Try = v })
		return
	}
	s.render(w, r, status, "exercise", "try-result", s.newPage(p, r, "", &exerciseData{ID: ex.ID, Try: v}))
}

// tryView parses and runs a trace and returns the panel that shows what
// came of it.
func (s *Server) tryView(ctx context.Context, p *i18n.Printer, ex *course.Exercise, text string) (*tryView, error) {
	v := &tryView{Trace: text, Tried: true, Example: try.ShortExample(ex)}
	tr, err := try.Parse(text, try.APIOf(ex))
	if errors.Is(err, try.ErrEmpty) {
		// A sentence of its own: an empty trace has no column to name.
		v.Error, v.Col = p.T("try.err_empty", "Example", v.Example), 1
		v.Before, v.At, v.After = split(p, text, 1)
		return v, nil
	}
	var se *try.SyntaxError
	if errors.As(err, &se) {
		v.Error, v.Col = p.T("web.try.syntax", "Col", se.Col, "Err", se.Message(p)), se.Col
		v.Before, v.At, v.After = split(p, text, se.Col)
		return v, nil
	}
	mine, err := try.Files(s.ws, ex)
	if err != nil {
		return nil, err
	}
	c, err := try.Run(ctx, s.ck, ex, mine, tr, s.ck.Timeout)
	if err != nil {
		return nil, err
	}
	if c.Problem != nil {
		v.Problem = explain.Problem(p, c.Problem)
		return v, nil
	}
	for _, row := range c.Rows {
		tv := tryRow{Call: row.Call, Mine: row.Mine.Text(p, c.Observe), Ref: row.Ref.Text(p, c.Observe), Differs: row.Differs}
		if row.Step > 0 {
			tv.Step = strconv.Itoa(row.Step)
		}
		v.Rows = append(v.Rows, tv)
	}
	v.Summary, v.Differs = c.Summary(p), c.First >= 0
	return v, nil
}

// split returns the trace around column col (1-based, in characters): a
// few characters before it, the one at it (a space past the end) and a
// few after, each safe to show.
func split(p *i18n.Printer, text string, col int) (before, at, after string) {
	runes := []rune(text)
	if col < 1 || col > len(runes)+1 {
		return textsafe.Line(p, text, textsafe.ValueMax), "", ""
	}
	i := col - 1
	at = " "
	if i < len(runes) {
		at = string(runes[i])
	}
	before = string(runes[max(0, i-around):i])
	if i > around {
		before = "…" + before
	}
	if i+1 < len(runes) {
		after = string(runes[i+1 : min(len(runes), i+1+around)])
		if i+1+around < len(runes) {
			after += "…"
		}
	}
	safe := func(s string) string { return textsafe.Line(p, s, textsafe.ValueMax) }
	return safe(before), safe(at), safe(after)
}

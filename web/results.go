package web

import (
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// resultView is a check's result as the page shows it.
type resultView struct {
	Status   string // pass, fail or error
	Summary  string
	Points   string
	Checked  string // the time of the check, HH:MM:SS
	Seq      int
	Problem  string
	Failing  *failView
	Others   []string // names of further failing tests
	Quiz     []string // one line per quiz case
	Notes    []string
	Output   string
	Cut      bool
	Duration string
}

// failView is the first failing test: where the learner's code departs,
// as a table and, for traces, a drawing.
type failView struct {
	Name     string
	Random   string
	Headline string
	Text     string // for failures that are not traces
	Observe  string
	Rows     []rowView
	Drawing  template.HTML
}

// rowView is one step of a failing trace, expected and actual side by
// side.
type rowView struct {
	N                       string
	Call                    string
	WantRet, WantObs        string
	GotRet, GotObs          string
	Failing, RetBad, ObsBad bool
}

// resultView returns the latest result of ex since the server started, or
// nil.
func (s *Server) resultView(p *i18n.Printer, ex *course.Exercise) *resultView {
	st := s.exercises[ex.ID]
	s.mu.Lock()
	res, at, seq := st.res, st.at, st.seq
	s.mu.Unlock()
	if res == nil {
		return nil
	}
	v := newResultView(p, ex, res)
	v.Checked = at.Local().Format(time.TimeOnly)
	v.Seq = seq
	return v
}

func newResultView(p *i18n.Printer, ex *course.Exercise, res *checker.Result) *resultView {
	v := &resultView{
		Status:   string(res.Status),
		Summary:  report.Summary(p, res),
		Points:   p.T("result.points", "Score", res.Score, "Max", res.MaxScore),
		Output:   textsafe.Text(p, res.Output, textsafe.OutputMax),
		Cut:      res.Truncated,
		Duration: res.Duration.Round(10 * time.Millisecond).String(),
	}
	if res.Status == checker.Error {
		v.Problem = report.Problem(p, res.Problem)
		return v
	}
	quiz := len(ex.Quiz) > 0
	first := res.FirstFailure()
	for i := range res.Tests {
		t := &res.Tests[i]
		switch {
		case quiz:
			v.Quiz = append(v.Quiz, report.Test(p, ex, res, t))
		case t == first:
			v.Failing = failingView(p, ex, res, t)
		case t.Status != checker.Pass:
			v.Others = append(v.Others, t.Name)
		case t.Note != nil:
			v.Notes = append(v.Notes, report.Test(p, ex, res, t))
		}
	}
	return v
}

func failingView(p *i18n.Printer, ex *course.Exercise, res *checker.Result, t *checker.Test) *failView {
	fv := &failView{Name: t.Name}
	f := report.Bound(p, t.Failure) // values from the learner's code, escaped and cut
	if f == nil || (f.Kind != harness.Mismatch && f.Kind != harness.Panicked && f.Kind != harness.Timeout) {
		fv.Text = report.Test(p, ex, res, t)
		return fv
	}
	switch {
	case f.Original > 0:
		fv.Random = p.T("trace.random", "Index", f.Index+1, "Seed", f.Seed, "Original", f.Original)
	case f.Seed != 0:
		fv.Random = p.T("trace.random_unshrunk", "Index", f.Index+1, "Seed", f.Seed)
	}
	switch {
	case f.Kind == harness.Panicked:
		fv.Headline = p.T("trace.panic", "Step", f.Step, "Call", f.Call, "Value", f.Panic,
			"Frame", strings.TrimPrefix(f.Frame, "github.com/kurs-course/kurs/"))
	case f.Kind == harness.Timeout:
		fv.Headline = p.T("trace.timeout", "Step", f.Step, "Call", f.Call)
	case f.Step == 0:
		fv.Headline = p.T("trace.first_new", "Call", f.Call)
	default:
		fv.Headline = p.T("trace.first", "Step", f.Step, "Call", f.Call)
	}
	fv.Observe = f.Observe
	fv.Rows = traceRows(p, f)
	fv.Drawing = drawTrace(p, f)
	return fv
}

// traceRows returns the constructor, the steps that ran and the failing
// step. A step ran only if it gave what was expected, so for those rows
// both sides are the same.
func traceRows(p *i18n.Printer, f *harness.Failure) []rowView {
	rows := []rowView{{Call: harness.FormatCall("New", f.New)}}
	if f.Step == 0 {
		r := &rows[0]
		r.Failing = true
		switch f.Kind {
		case harness.Mismatch:
			r.WantObs, r.GotObs = quoteEmpty(f.Want.Obs), quoteEmpty(f.Got.Obs)
			r.ObsBad = !sameValue(f.Want.Obs, f.Got.Obs)
		case harness.Panicked:
			r.GotRet = p.T("web.trace.panic")
			r.WantObs = f.Want.Obs
		case harness.Timeout:
			r.GotRet = p.T("web.trace.timeout")
		}
		if f.Call != "" && !strings.HasPrefix(f.Call, "New(") {
			r.Call = harness.FormatCall("New", f.New) + "; " + f.Call
		}
		return rows
	}
	for i, d := range f.Done {
		rows = append(rows, rowView{N: strconv.Itoa(i + 1), Call: d.Call,
			WantRet: d.Got.Ret, WantObs: d.Got.Obs, GotRet: d.Got.Ret, GotObs: d.Got.Obs})
	}
	r := rowView{N: strconv.Itoa(f.Step), Call: f.Call, Failing: true}
	switch f.Kind {
	case harness.Mismatch:
		r.WantRet, r.WantObs, r.GotRet, r.GotObs = f.Want.Ret, quoteEmpty(f.Want.Obs), f.Got.Ret, quoteEmpty(f.Got.Obs)
		r.RetBad = !sameValue(f.Want.Ret, f.Got.Ret)
		r.ObsBad = !sameValue(f.Want.Obs, f.Got.Obs)
	case harness.Panicked:
		r.WantRet, r.WantObs = f.Want.Ret, f.Want.Obs
		r.GotRet, r.RetBad = p.T("web.trace.panic"), true
	case harness.Timeout:
		r.GotRet, r.RetBad = p.T("web.trace.timeout"), true
	}
	return append(rows, r)
}

// quoteEmpty shows an empty observation as Go writes the empty string, so
// that an empty cell does not look like a missing one.
func quoteEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// sameValue reports whether two results are equal as the harness compares
// them: numbers within a billionth.
func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	d := x - y
	if d < 0 {
		d = -d
	}
	return d <= 1e-9*max(1, abs(x), abs(y))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

package web

import (
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
)

// The page explains a result as kurs check does: package explain turns the
// result into an explanation (explain.Explain), and this file only lays
// that explanation out as HTML. The headline, the step, the values, which
// steps are elided and which are greyed all come from the explanation, so
// the page and the terminal cannot disagree.

// resultView is a check's result as the page shows it.
type resultView struct {
	Status   string // pass, fail or error
	Summary  string
	Points   string
	Checked  string // the time of the check, HH:MM:SS
	Seq      int
	Duration string
	Problem  string
	Quiz     bool
	Tests    []testView
	Others   []string // further failing tests, each by its title and id
	NotRun   []string // tests the program never reached: it ended before them
	Output   string
	Cut      bool
	OutTitle string // heads Output: what printed it
	// Misconception names the mistake the code most likely shows, beside
	// the first difference; nil when none is recognised.
	Misconception *misconceptionView
}

// misconceptionView is a recognised misconception: its line ("Likely
// misconception: …") and its explanation, rendered from Markdown.
type misconceptionView struct {
	Line        string
	Explanation template.HTML
	source      string
}

// testView is one explained test: a quiz case on one line, or a failing
// test with its headline and its trace as a table (and a drawing).
type testView struct {
	Heading  string // the test's title, kind and id, as kurs check heads it
	Pass     bool
	Random   string
	Headline string
	Detail   string
	Step     int // the step that departed, -1 for none
	// Trace is the trace as the page shows it at first: for a long one,
	// the steps around the departure (explain.Trace.Around); All is then
	// the whole trace, shown on request, and Steps the number of its
	// steps.
	Trace *traceView
	All   *traceView
	Steps int
	// Drawing draws the observations over the steps; for a long trace
	// it comes with All, as another view of every step.
	Drawing template.HTML
	Caption string // says what the drawing shows
}

// traceView is explain.Trace laid out as a table: the step, the call, and
// for each side (expected, your code) the same value columns.
type traceView struct {
	ID string // "trace" for the first table of the page
	// The headings of the columns of steps and calls and of each side.
	StepHead, CallHead, WantHead, GotHead string

	Columns []columnView
	Span    int // the value columns of both sides, for a row's note
	Rows    []traceRow
}

// columnView is one value column: the return value or one observation.
type columnView struct {
	Head template.HTML // the heading under "expected" and "your code"
	// WantLabel and GotLabel name the cell where the table stacks on a
	// narrow screen.
	WantLabel, GotLabel string
}

// traceRow is one row of explain.Trace.
type traceRow struct {
	Kind      explain.RowKind
	N         string
	Call      string
	Want, Got []cellView
	// Note stands in place of the values: the count of an elided run, or
	// the remark on the first step the test would have made next.
	Note string
	// Side is the values of a step that gave what was expected, on one
	// line as kurs check writes them ("1, Attempt() = 1"): a phone shows
	// such a step on one line, not as a card of expected and actual.
	Side string
}

type cellView struct {
	Value string
	Bad   bool
}

// resultView returns the latest result of ex since the server started, or
// nil.
func (s *Server) resultView(p *i18n.Printer, ex *course.Exercise) *resultView {
	last, _ := s.loop.Last(ex.ID)
	res, at, seq := last.Result, last.At, last.Seq
	if res == nil {
		return nil
	}
	v := newResultView(p, ex, res, explain.Options{Untouched: last.Untouched})
	if m := v.Misconception; m != nil {
		m.Explanation = s.markdown(m.source)
	}
	v.Checked = at.Local().Format(time.TimeOnly)
	v.Seq = seq
	return v
}

// duration writes a check's duration as explain.Duration does, as the
// reader writes it ("0.4 s", in German "0,4 s"), with no-break spaces: a
// line of the page never ends between a number and its unit.
func duration(p *i18n.Printer, d time.Duration) string {
	return strings.ReplaceAll(explain.Duration(p, d), " ", "\u00a0")
}

// newResultView lays out explain.Explain's explanation of res, made with
// opt: the same explanation as in the terminal.
func newResultView(p *i18n.Printer, ex *course.Exercise, res *checker.Result, opt explain.Options) *resultView {
	e := explain.Explain(p, ex, res, opt)
	v := &resultView{
		Status:   string(e.Status),
		Summary:  e.Summary,
		Points:   e.Points,
		Duration: duration(p, res.Duration),
		Problem:  e.Problem,
		Quiz:     e.Quiz,
		Others:   e.Others,
		NotRun:   e.NotRun,
		Output:   e.Output,
		Cut:      e.OutputCut,
		OutTitle: e.OutputTitle,
	}
	if m := e.Misconception; m != nil {
		v.Misconception = &misconceptionView{Line: m.Line, source: m.Explanation,
			Explanation: template.HTML("<p>" + template.HTMLEscapeString(m.Explanation) + "</p>")}
	}
	first := res.FirstFailure()
	tables := 0
	for i := range e.Tests {
		t := &e.Tests[i]
		tv := testView{Heading: t.Heading, Pass: t.Status == checker.Pass, Random: t.Random,
			Headline: t.Headline, Detail: t.Detail, Step: t.Step}
		if t.Trace != nil {
			tv.Trace = newTraceView(p, t.Trace)
			if rows, hidden := t.Trace.Around(); hidden > 0 {
				cut := *t.Trace
				cut.Rows = rows
				tv.All, tv.Trace = tv.Trace, newTraceView(p, &cut)
				tv.Trace.insertEarlier(p, hidden)
				if f := t.Trace.Failing(); f != nil {
					tv.Steps = f.N
				}
			}
			if tables == 0 {
				tv.Trace.ID = "trace"
			}
			tables++
		}
		if first != nil && first.Name == t.Name && t.Trace != nil {
			// The drawing shows the steps over time; it needs every
			// step, including those the table elides.
			f := explain.Bound(p, first.Failure)
			tv.Drawing, tv.Caption = drawing(p, f)
		}
		v.Tests = append(v.Tests, tv)
	}
	return v
}

// newTraceView lays out a trace: the returned value's column only when a
// step returns something, then one column per observation, on each side.
func newTraceView(p *i18n.Printer, tr *explain.Trace) *traceView {
	want, got := p.T("web.trace.want"), p.T("web.trace.got")
	tv := &traceView{StepHead: p.T("web.trace.step"), CallHead: p.T("web.trace.call"), WantHead: want, GotHead: got}
	if tr.Returns {
		tv.Columns = append(tv.Columns, columnView{Head: template.HTML(template.HTMLEscapeString(p.T("web.trace.returns"))),
			WantLabel: p.T("web.trace.want_returns"), GotLabel: p.T("web.trace.got_returns")})
	}
	for _, name := range tr.Observe {
		tv.Columns = append(tv.Columns, columnView{Head: template.HTML("<code>" + template.HTMLEscapeString(name) + "</code>"),
			WantLabel: want + " " + name, GotLabel: got + " " + name})
	}
	tv.Span = 2 * len(tv.Columns)
	after := false
	for _, r := range tr.Rows {
		row := traceRow{Kind: r.Kind, N: strconv.Itoa(r.N), Call: r.Call}
		switch r.Kind {
		case explain.RowNew:
			row.N = ""
			row.Want, row.Got = cells(tr, &r)
			row.Side = side(tr, &r)
		case explain.RowStep:
			row.Want, row.Got = cells(tr, &r)
			row.Side = side(tr, &r)
		case explain.RowFailing:
			if r.N == 0 {
				row.N = ""
			}
			if row.Call == "" {
				row.Call = "?"
			}
			row.Want, row.Got = cells(tr, &r)
			if r.Panicked || r.TimedOut {
				what := p.T("web.trace.panic")
				if r.TimedOut {
					what = p.T("web.trace.timeout")
				}
				for i := range row.Got {
					row.Got[i] = cellView{}
				}
				if len(row.Got) > 0 {
					row.Got[0] = cellView{Value: what, Bad: true}
				}
			}
		case explain.RowElided:
			row.N, row.Call = "⋮", ""
			row.Note = p.T("trace.elided", "Count", r.Elided)
		case explain.RowAfter:
			if !after {
				row.Note = p.T("trace.after")
				after = true
			}
		}
		tv.Rows = append(tv.Rows, row)
	}
	return tv
}

// rowEarlier is the row of a cut trace that stands for the steps left
// out before the departure (see explain.Trace.Around).
const rowEarlier explain.RowKind = "earlier"

// insertEarlier puts the row that counts the hidden steps after the
// constructor's.
func (tv *traceView) insertEarlier(p *i18n.Printer, hidden int) {
	at := 0
	if len(tv.Rows) > 0 && tv.Rows[0].Kind == explain.RowNew {
		at = 1
	}
	tv.Rows = slices.Insert(tv.Rows, at, traceRow{Kind: rowEarlier, N: "⋮", Note: p.T("web.trace.earlier", "Count", hidden)})
}

// cells returns a row's values on each side, one per column of tr.
func cells(tr *explain.Trace, r *explain.Row) (want, got []cellView) {
	add := func(c explain.Cell) {
		want = append(want, cellView{Value: c.Want})
		got = append(got, cellView{Value: c.Got, Bad: c.Differs})
	}
	if tr.Returns {
		add(r.Ret)
	}
	for i := range tr.Observe {
		var c explain.Cell
		if i < len(r.Obs) {
			c = r.Obs[i]
		}
		add(c)
	}
	return want, got
}

// side writes the values of a step whose two sides agree as kurs check
// does: the returned value, then each observation by its name.
func side(tr *explain.Trace, r *explain.Row) string {
	var parts []string
	if tr.Returns && r.Ret.Got != "" {
		parts = append(parts, r.Ret.Got)
	}
	for i, c := range r.Obs {
		if c.Got == "" {
			continue
		}
		v := c.Got
		if i < len(tr.Observe) && tr.Observe[i] != "" {
			v = tr.Observe[i] + " = " + v
		}
		parts = append(parts, v)
	}
	if len(parts) == 0 {
		return ""
	}
	return "→ " + strings.Join(parts, ", ")
}

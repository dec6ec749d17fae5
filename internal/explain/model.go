// Package explain turns a checker result into what the learner reads:
// the explanation of each failing test (the trace up to where the code
// departed, the misconception it likely shows, why nothing could be
// tested), in the learner's language, and its plain text, which kurs
// check, kurs watch and the page show. The words may be a student's or a
// teacher's (see Audience) for the grading documents of package report,
// which build on this one; nothing here knows of them.
package explain

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// The explanation model. A check's result is turned into an Explanation
// once, here; the terminal's text, the web page and every grading format
// only render it, so that they show the same headline, the same step and
// the same values. Every string in the model is fit to show: values from
// the learner's code are escaped to one line and cut (see package
// textsafe), and messages are in the printer's language.

// Explanation is what one exercise's check means to the learner.
type Explanation struct {
	Exercise string
	Title    string // the exercise's title
	Status   checker.Status
	Score    int
	MaxScore int
	Points   string // "0/4 points"
	Summary  string // "5 of 14 tests fail"
	// Quiz reports that the exercise is a quiz: Tests then hold every
	// case, each right or wrong.
	Quiz bool
	// Scoring states how the exercise earns its points: all or nothing
	// for code, per case for a quiz.
	Scoring string
	// Problem says why no test could run, when Status is checker.Error.
	Problem string
	// Tests are the tests worth showing: the first failing one (every
	// failing one when asked for), and for a quiz every case, right or
	// wrong.
	Tests []TestExplanation
	// Others are the further failing tests, not explained, each named as
	// TestLabel names it.
	Others []string
	// NotRun are the tests the learner's program never reached, because
	// it ended during an earlier one (a crash, a time-out); they count as
	// failing, but nothing of the learner's code failed them.
	NotRun []string
	// Output is what the learner's code printed; OutputCut, that kurs
	// kept only its start. OutputTitle heads it: it also names the race
	// detector when the output holds its reports, which the learner's
	// code did not print.
	Output      string
	OutputCut   bool
	OutputTitle string
	// Next says what to do when the exercise fails ("kurs hint …").
	Next string
	// Misconception names the mistake the failing code most likely
	// shows, when it behaves as one of the exercise's misconceptions;
	// nil otherwise.
	Misconception *Named
	// Races says, one line each, which of the learner's functions the
	// race detector caught in a data race, with file and line, whenever
	// it found one, whatever the stress tests did (Output holds its whole
	// report).
	Races []string
}

// TestExplanation explains one hidden test.
type TestExplanation struct {
	Name string // the test's id, e.g. edge/wait-boundary: the key machines read
	// Title says what the test checks, in the learner's language, as the
	// course writes it ("The probe comes exactly wait ticks after
	// opening"); empty when the course gives none.
	Title string
	Kind  string // the test's kind in the learner's language, e.g. "edge case"
	// Heading names the test above its explanation: its title, then its
	// kind and id (see testHeading).
	Heading string
	Status  checker.Status
	// Random says which random trace failed and from how many steps it
	// was shrunk; empty for a fixed trace.
	Random string
	// Headline says where the learner's code departed, or, for a test
	// without a trace (a quiz case, a crash), all there is to say.
	Headline string
	// Detail is text that belongs under the headline, such as the
	// runtime's last words; it may have several lines.
	Detail string
	// Step is the step where the learner's code departed (0: right after
	// New); -1 when the test has no such step.
	Step int
	// Trace is the trace up to the step that departed, and a few steps
	// after it; nil for a test without one.
	Trace *Trace
}

// Trace is a failing trace as a table: one row per step, the returned
// value and each observation in its own column.
type Trace struct {
	// Observe names the observation columns, e.g. ["State()"] or
	// ["State()", "now()"]; a row has one cell per column.
	Observe []string
	// Returns reports whether any step returns a value: without, the
	// column of returned values is left out.
	Returns bool
	Rows    []Row
}

// RowKind says what a row of a trace is.
type RowKind string

// Kinds of rows.
const (
	RowNew     RowKind = "new"     // the constructor; Obs is the state after it, when known
	RowStep    RowKind = "step"    // a step that gave what was expected
	RowFailing RowKind = "failing" // the step that departed
	RowElided  RowKind = "elided"  // Elided steps alike to those around them, left out
	RowAfter   RowKind = "after"   // a step the test would have made next; shown greyed, without values
)

// Row is one row of a trace.
type Row struct {
	Kind RowKind
	N    int    // the step's number; 0 for New
	Call string // "Allow(9)"; empty when not known
	// Ret is what the call returned and Obs what was observed after it,
	// one cell per column of Trace.Observe. In a RowStep each cell's Want
	// and Got are the same; in a RowNew they may be unknown (empty Obs).
	Ret Cell
	Obs []Cell
	// Panicked and TimedOut describe a RowFailing whose call (or, with
	// InObserve, the observation after it) panicked or never returned.
	Panicked  bool
	InObserve bool
	TimedOut  bool
	// Elided is the number of steps a RowElided stands for.
	Elided int
}

// Cell is one value of a row: what was expected and what came back, as
// Go writes them (strings quoted, numbers and booleans bare).
type Cell struct {
	Want, Got string
	// Differs reports that the learner's value is not the expected one.
	Differs bool
}

// Failing returns the row of the step that departed, or nil.
func (t *Trace) Failing() *Row {
	for i := range t.Rows {
		if t.Rows[i].Kind == RowFailing {
			return &t.Rows[i]
		}
	}
	return nil
}

// How much of a trace the model keeps: runs of more than elideRun steps
// alike are cut to their first elideKeep and last step; afterSteps steps
// after the departure are shown greyed.
const (
	elideRun   = 6
	elideKeep  = 2
	afterSteps = 3
)

// Options say how much an explanation holds.
type Options struct {
	// Verbose explains every failing test, not only the first.
	Verbose bool
	// Audience is whom the explanation speaks to: Learner (the zero
	// value) or Student.
	Audience Audience
	// Untouched says the files were the exercise's skeleton (see
	// Graded.Untouched): no misconception is named, since nobody has
	// tried yet.
	Untouched bool
}

// Explain turns an exercise's result into its explanation, in p's
// language.
func Explain(p *i18n.Printer, ex *course.Exercise, res *checker.Result, opt Options) *Explanation {
	e := &Explanation{
		Exercise: res.Exercise,
		Status:   res.Status,
		Score:    res.Score,
		MaxScore: res.MaxScore,
		Points:   p.T("result.points", "Score", res.Score, "Max", res.MaxScore),
		Summary:  SummaryFor(p, ex, res),
		Scoring:  Scoring(p, ex),
	}
	if ex != nil {
		e.Title = ex.Title.In(p.Lang())
	}
	if res.Status == checker.Error {
		e.Problem = textsafe.Text(p, ProblemFor(p, res.Problem, opt.Audience, res.Exercise), textsafe.MessageMax)
		return e
	}
	quiz := ex != nil && ex.Traits().ExplainAll
	e.Quiz = quiz
	first := res.FirstFailure()
	for i := range res.Tests {
		t := &res.Tests[i]
		switch {
		case quiz || t == first || t.Note != nil || opt.Verbose && t.Status != checker.Pass:
			e.Tests = append(e.Tests, *explainTest(p, ex, res, t, opt.Audience))
		case t.Status != checker.Pass && t.Missing:
			e.NotRun = append(e.NotRun, TestLabel(p, ex, t.Name))
		case t.Status != checker.Pass:
			e.Others = append(e.Others, TestLabel(p, ex, t.Name))
		}
	}
	if res.Status == checker.Fail {
		e.Misconception = Graded{Exercise: ex, Result: res, Untouched: opt.Untouched}.Misconception(p)
		e.Output, e.OutputCut = textsafe.Text(p, res.Output, textsafe.OutputMax), res.Truncated
		e.OutputTitle = p.T("output.printed")
		if res.Concurrency == checker.ConcurrencyRace && strings.Contains(res.Output, "WARNING: DATA RACE") {
			e.OutputTitle = p.T("output.printed_race")
		}
		e.Races = raceLines(p, res)
		e.Next = p.T("result.next", "Exercise", res.Exercise)
		if opt.Audience == Student {
			e.Next = p.T("student.result.next", "Exercise", res.Exercise)
		}
	}
	return e
}

// quizSummary returns one line on a quiz's result: how many cases are
// right.
func quizSummary(p *i18n.Printer, res *checker.Result) string {
	right := 0
	for _, t := range res.Tests {
		if t.Status == checker.Pass {
			right++
		}
	}
	return p.T("quiz.summary", "Right", right, "Total", len(res.Tests))
}

// Scoring states how ex earns its points: a code exercise all or nothing,
// a quiz per case. It is empty for an exercise without points.
func Scoring(p *i18n.Printer, ex *course.Exercise) string {
	switch {
	case ex == nil || ex.Points == 0:
		return ""
	case ex.Traits().Scoring == course.PerCase:
		return p.T("scoring.per_case", "Max", ex.Points)
	}
	return p.T("scoring.all_or_nothing", "Max", ex.Points)
}

// ExplainTest explains one test's outcome.
func ExplainTest(p *i18n.Printer, ex *course.Exercise, res *checker.Result, t *checker.Test) *TestExplanation {
	return explainTest(p, ex, res, t, Learner)
}

// explainTest is ExplainTest in the words for aud (see wording): to a
// teacher, an unanswered quiz case is the submission's, not a task.
func explainTest(p *i18n.Printer, ex *course.Exercise, res *checker.Result, t *checker.Test, aud Audience) *TestExplanation {
	te := &TestExplanation{Name: t.Name, Title: testTitle(p, ex, t.Name), Kind: testKind(p, t.Name),
		Heading: testHeading(p, ex, t.Name), Status: t.Status, Step: -1}
	if t.Status == checker.Pass {
		if t.Note != nil && t.Note.Kind == harness.Quiz {
			te.Headline = p.T("quiz.right", "Case", t.Note.Case, "Why", quizWhy(p, ex, t.Note))
		} else {
			te.Headline = p.T("test.pass")
		}
		return te
	}
	if t.Missing {
		switch {
		case t.Crashed && res.Killed:
			te.Headline = p.T("test.crashed_killed")
		case t.Crashed:
			te.Headline, te.Detail = p.T("test.crashed"), crashText(p, res.Crash)
		case res.Killed:
			te.Headline = p.T("test.missing_killed")
		case res.Crash != "":
			te.Headline, te.Detail = p.T("test.missing_crash"), textsafe.Text(p, res.Crash, textsafe.BlockMax)
		default:
			te.Headline = p.T("test.missing")
		}
		return te
	}
	f := t.Failure
	if f == nil {
		te.Headline = p.T("test.missing")
		return te
	}
	switch {
	case f.Original > 0:
		te.Random = p.T("trace.random", "Index", f.Index+1, "Seed", f.Seed, "Original", f.Original)
	case f.Seed != 0:
		te.Random = p.T("trace.random_unshrunk", "Index", f.Index+1, "Seed", f.Seed)
	}
	if f.Kind == harness.Quiz {
		te.Random = ""
		given := textsafe.Line(p, quizAnswer(ex, f.Case, f.Given), textsafe.AnswerMax)
		switch why := quizWhy(p, ex, f); {
		case f.Given == "":
			te.Headline = wording(p, aud, res.Exercise)("quiz.empty", "Case", f.Case, "Options", quizOptions(ex, f.Case))
		case why != "":
			te.Headline = p.T("quiz.wrong", "Case", f.Case, "Given", given, "Why", why)
		default:
			te.Headline = p.T("quiz.unknown", "Case", f.Case, "Given", given, "Options", quizOptions(ex, f.Case))
		}
		return te
	}
	te.Step = f.Step
	steps := suiteSteps(ex, t.Name, f)
	call := stepCall(p, f.Call)
	inObserve := f.Kind == harness.Panicked && f.Observe != "" && f.Call == f.Observe
	if inObserve {
		// The observation after the step panicked: the harness names the
		// observation in Call, and the step's own call is the suite's.
		call = ""
		if f.Step > 0 && f.Step <= len(steps) {
			call = harness.FormatCall(steps[f.Step-1].Call, steps[f.Step-1].Args)
		}
	}
	at := call
	if f.Step == 0 {
		at = harness.FormatCall("New", f.New)
	}
	switch f.Kind {
	case harness.Mismatch:
		if f.Step == 0 {
			te.Headline = p.T("trace.first_new", "Call", at)
		} else {
			te.Headline = p.T("trace.first", "Step", f.Step, "Call", at)
		}
	case harness.Panicked:
		args := []any{"Step", f.Step, "Call", at, "Observe", line(p, f.Observe),
			"Value", line(p, f.Panic), "Frame", line(p, Frame(f.Frame))}
		switch {
		case inObserve && f.Step == 0:
			te.Headline = p.T("trace.panic_observe_new", args...)
		case inObserve && at == "":
			te.Headline = p.T("trace.panic_observe_unknown", args...)
		case inObserve:
			te.Headline = p.T("trace.panic_observe", args...)
		case f.Step == 0:
			te.Headline = p.T("trace.panic_new", args...)
		default:
			te.Headline = p.T("trace.panic", args...)
		}
	case harness.Timeout:
		te.Headline = p.T("trace.timeout", "Step", f.Step, "Call", at)
	default:
		te.Headline = p.T("test.missing")
		te.Step = -1
		return te
	}
	te.Trace = traceOf(p, f, call, inObserve, steps)
	return te
}

// suiteSteps returns the steps of a fixed trace from the exercise's suite,
// which the failure holds only up to the step that departed; nil for a
// random trace.
func suiteSteps(ex *course.Exercise, name string, f *harness.Failure) []harness.Step {
	if ex == nil || f.Seed != 0 {
		return nil
	}
	for _, t := range ex.Suite.Tests {
		if t.Name == name && t.Random == 0 {
			return t.Steps
		}
	}
	return nil
}

// traceOf builds the table of a failing trace.
func traceOf(p *i18n.Printer, f *harness.Failure, call string, inObserve bool, steps []harness.Step) *Trace {
	tr := &Trace{Observe: observeNames(f)}
	cells := func(want, got harness.Result, compare bool) (Cell, []Cell) {
		ret := Cell{Want: value(p, want.Ret), Got: value(p, got.Ret)}
		if want.Ret == "" && got.Ret == "" {
			ret = Cell{}
		}
		wo, gobs := splitObs(f.Observe, want.Obs, len(tr.Observe)), splitObs(f.Observe, got.Obs, len(tr.Observe))
		obs := make([]Cell, len(tr.Observe))
		for i := range obs {
			obs[i] = Cell{Want: value(p, wo[i]), Got: value(p, gobs[i])}
			if compare {
				obs[i].Differs = !sameValue(wo[i], gobs[i])
			}
		}
		if compare {
			ret.Differs = !sameValue(want.Ret, got.Ret)
			if !ret.Differs && want != got && !anyDiffers(obs) {
				// Equal cell by cell, yet not as a whole: mark what is
				// not written the same.
				ret.Differs = want.Ret != got.Ret
				for i := range obs {
					obs[i].Differs = wo[i] != gobs[i]
				}
			}
		}
		return ret, obs
	}
	newRow := Row{Kind: RowNew, Call: harness.FormatCall("New", f.New)}
	if f.Step == 0 {
		newRow.Kind = RowFailing
		switch f.Kind {
		case harness.Mismatch:
			newRow.Ret, newRow.Obs = cells(f.Want, f.Got, true)
		case harness.Panicked:
			newRow.Panicked, newRow.InObserve = true, inObserve
		case harness.Timeout:
			newRow.TimedOut = true
		}
		tr.Rows = append(tr.Rows, newRow)
	} else {
		if f.Init != nil {
			_, newRow.Obs = cells(*f.Init, *f.Init, false)
		}
		tr.Rows = append(tr.Rows, newRow)
		var done []Row
		for i, d := range f.Done {
			r := Row{Kind: RowStep, N: i + 1, Call: stepCall(p, d.Call)}
			r.Ret, r.Obs = cells(d.Got, d.Got, false)
			done = append(done, r)
		}
		tr.Rows = append(tr.Rows, elide(done, f.Done)...)
		r := Row{Kind: RowFailing, N: f.Step, Call: call}
		switch f.Kind {
		case harness.Mismatch:
			r.Ret, r.Obs = cells(f.Want, f.Got, true)
		case harness.Panicked:
			r.Panicked, r.InObserve = true, inObserve
			r.Ret, r.Obs = cells(f.Want, harness.Result{}, false)
			for i := range r.Obs {
				r.Obs[i].Got = ""
			}
			r.Ret.Got = ""
		case harness.Timeout:
			r.TimedOut = true
		}
		tr.Rows = append(tr.Rows, r)
	}
	for i := f.Step; i < len(steps) && i < f.Step+afterSteps; i++ {
		tr.Rows = append(tr.Rows, Row{Kind: RowAfter, N: i + 1, Call: harness.FormatCall(steps[i].Call, steps[i].Args)})
	}
	for _, r := range tr.Rows {
		if r.Ret.Want != "" || r.Ret.Got != "" {
			tr.Returns = true
		}
	}
	return tr
}

func anyDiffers(cells []Cell) bool {
	for _, c := range cells {
		if c.Differs {
			return true
		}
	}
	return false
}

// elide cuts long runs of steps alike (the same method, returning and
// leaving the same) to their first steps and their last, with a row that
// counts the steps left out.
func elide(rows []Row, done []harness.Done) []Row {
	var out []Row
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && alike(done[i], done[j]) {
			j++
		}
		if j-i > elideRun {
			out = append(out, rows[i:i+elideKeep]...)
			out = append(out, Row{Kind: RowElided, N: rows[i+elideKeep].N, Elided: j - i - elideKeep - 1})
			out = append(out, rows[j-1])
		} else {
			out = append(out, rows[i:j]...)
		}
		i = j
	}
	return out
}

// alike reports whether two steps call the same method and gave the same.
func alike(a, b harness.Done) bool {
	name := func(call string) string { n, _, _ := strings.Cut(call, "("); return n }
	return name(a.Call) == name(b.Call) && a.Got == b.Got
}

// observeNames returns the names of the observations after each call: the
// parts of the driver's Observe ("State(), now()" is two), or, when a
// single observation's values are labelled ("recommendations -1,
// checkout 1"), one per label ("recommendations.InUse()").
func observeNames(f *harness.Failure) []string {
	if f.Observe == "" {
		return []string{""}
	}
	names := splitTop(f.Observe)
	if len(names) > 1 {
		return names
	}
	var sample string
	switch {
	case f.Want.Obs != "":
		sample = f.Want.Obs
	case f.Got.Obs != "":
		sample = f.Got.Obs
	case len(f.Done) > 0:
		sample = f.Done[0].Got.Obs
	}
	if labels, _, ok := labelled(sample); ok {
		out := make([]string, len(labels))
		for i, l := range labels {
			out[i] = l + "." + f.Observe
		}
		return out
	}
	return names
}

// splitObs splits an observation into n values, as observeNames named
// them; a value that does not split so stays whole in the first cell.
func splitObs(observe, obs string, n int) []string {
	out := make([]string, n)
	if n == 1 {
		out[0] = obs
		return out
	}
	parts := splitTop(obs)
	if _, values, ok := labelled(obs); ok && len(splitTop(observe)) == 1 {
		parts = values
	}
	if len(parts) != n {
		out[0] = obs
		return out
	}
	copy(out, parts)
	return out
}

var label = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*) (\S+)$`) })

// labelled splits "a 1, b 2" into its labels and values.
func labelled(s string) (labels, values []string, ok bool) {
	parts := splitTop(s)
	if len(parts) < 2 {
		return nil, nil, false
	}
	for _, p := range parts {
		m := label().FindStringSubmatch(p)
		if m == nil {
			return nil, nil, false
		}
		labels, values = append(labels, m[1]), append(values, m[2])
	}
	return labels, values, true
}

// splitTop splits s at the commas that separate values: not inside
// quotes, parentheses or brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// sameValue reports whether two values are equal as the judge compares
// them (see harness.SameValue), so an explanation marks exactly the cells
// the judge found different.
func sameValue(a, b string) bool { return harness.SameValue(a, b) }

// Side writes what a call returned and what was observed after it, one
// value per observation, as the explanations do: `true, State() = "open"`.
// observe names the observations (see Trace.Observe).
func Side(p *i18n.Printer, observe string, r harness.Result) string {
	f := &harness.Failure{Observe: observe, Want: r}
	tr := &Trace{Observe: observeNames(f), Returns: r.Ret != ""}
	obs := splitObs(observe, r.Obs, len(tr.Observe))
	row := &Row{Ret: Cell{Got: value(p, r.Ret)}}
	if r.Ret == "" {
		row.Ret = Cell{}
	}
	for _, o := range obs {
		row.Obs = append(row.Obs, Cell{Got: value(p, o)})
	}
	return unkeep(tr.side(row, false, false))
}

// SameResult reports whether two results are equal as the judge compares
// them.
func SameResult(a, b harness.Result) bool { return sameValue(a.Ret, b.Ret) && sameValue(a.Obs, b.Obs) }

// ModulePath is the module path under which kurs builds the learner's
// package and its own; frames in panics and crash reports start with it.
const ModulePath = harness.Module

// Frame returns a frame of the learner's code ("…/circuitbreaker.go:12")
// as the learner knows it: relative to the workspace.
func Frame(frame string) string { return strings.TrimPrefix(frame, ModulePath+"/") }

// testKind returns what kind of test name is, in p's language: the
// kind is the part of the id before its slash ("edge/wait-boundary" is an
// edge case), and a quiz's "case2" is its case 2. It is empty for a test
// of no known kind.
func testKind(p *i18n.Printer, name string) string {
	kind, _, ok := strings.Cut(name, "/")
	if !ok {
		if n, err := strconv.Atoi(strings.TrimPrefix(name, "case")); err == nil && strings.HasPrefix(name, "case") {
			return p.T("test.kind.case", "Case", n)
		}
		kind = name
	}
	id := "test.kind." + kind
	if i18n.Has(p.Lang(), id) {
		return p.T(id)
	}
	return ""
}

// testHeading names the test name of ex above its explanation, in p's
// language: its title, then its kind and its id ("Test: Only failures in
// a row open the breaker (edge case, edge/failures-must-be-consecutive)"),
// so that the learner reads what the test checks before its key. Without a
// title it names the id and the kind.
func testHeading(p *i18n.Printer, ex *course.Exercise, name string) string {
	title, kind := testTitle(p, ex, name), testKind(p, name)
	if strings.EqualFold(kind, title) {
		kind = "" // a quiz case: its title is its label, "Case 2"
	}
	if title == "" {
		return p.T("test.heading_untitled", "Name", name, "Kind", kind)
	}
	return p.T("test.heading", "Name", name, "Title", title, "Kind", kind)
}

// TestLabel names the test name of ex in a list, in p's language: its
// title, then its id ("Only failures in a row open the breaker
// (edge/failures-must-be-consecutive)"); the id alone without a title.
func TestLabel(p *i18n.Printer, ex *course.Exercise, name string) string {
	if title := testTitle(p, ex, name); title != "" {
		return p.T("test.label", "Name", name, "Title", title)
	}
	return name
}

// testTitle returns the title of ex's test name in p's language, or "".
func testTitle(p *i18n.Printer, ex *course.Exercise, name string) string {
	if ex == nil {
		return ""
	}
	return ex.TestTitle(name, p.Lang())
}

func line(p *i18n.Printer, s string) string { return textsafe.Line(p, s, textsafe.ValueMax) }

// stepCall is line for the call of a step: a claim of a stress run
// ("maxInUse(16 goroutines) ≤ 1") reads as what it counts in the
// reader's language, with the claim's name the task uses in brackets
// ("größtes InUse(), das ein Aufrufer mit Platz sah (maxInUse) ≤ 1"). A
// claim the catalog does not name keeps the harness's words.
func stepCall(p *i18n.Printer, s string) string {
	claim, bound, ok := harness.StressClaim(s)
	if !ok || !i18n.Has(p.Lang(), "stress.claim."+claim) {
		return line(p, s)
	}
	return line(p, strings.TrimSpace(p.T("stress.claim."+claim)+" "+bound))
}

// modulePrefix starts the frames of kurs's module; see Frame.
const modulePrefix = ModulePath + "/"

// SummaryFor returns one line on the result of exercise ex, which may be
// nil: a quiz counts cases, right or not, passed or not, in the word of
// its lines and of the page's badge; anything else is Summary.
func SummaryFor(p *i18n.Printer, ex *course.Exercise, res *checker.Result) string {
	if res.Status != checker.Error && ex != nil && ex.Traits().ExplainAll {
		return quizSummary(p, res)
	}
	return Summary(p, res)
}

// Summary returns one line on an exercise's result, counting tests.
func Summary(p *i18n.Printer, res *checker.Result) string {
	switch res.Status {
	case checker.Pass:
		return p.T("result.pass", "Total", len(res.Tests))
	case checker.Error:
		return p.T("result.error")
	}
	failed := 0
	for _, t := range res.Tests {
		if t.Status != checker.Pass {
			failed++
		}
	}
	return p.T("result.fail", "Failed", failed, "Total", len(res.Tests))
}

// Problem explains why an exercise could not be tested, to the learner.
func Problem(p *i18n.Printer, pr *checker.Problem) string {
	return ProblemFor(p, pr, Learner, "")
}

// ProblemFor explains why the exercise could not be tested to aud: to a
// teacher in the words of a teacher.problem.KIND message where there is
// one (they speak about the submission, and tell no one what to do next),
// to a student in those of a student.problem.KIND message (they speak
// about the submission, and send no one to kurs), else in the learner's.
func ProblemFor(p *i18n.Printer, pr *checker.Problem, aud Audience, exercise string) string {
	if pr == nil {
		return p.T("problem.unknown")
	}
	T := wording(p, aud, exercise)
	// The file name, import path or package name, compiler output and
	// crash text come from the learner's files or program.
	at := textsafe.Line(p, pr.File, textsafe.ValueMax)
	if pr.Line > 0 {
		at = fmt.Sprintf("%s:%d", at, pr.Line)
	}
	detail := textsafe.Line(p, pr.Detail, textsafe.ValueMax)
	switch pr.Kind {
	case checker.ProblemCompile, checker.ProblemAPI:
		// A file left out of the build (//go:build ignore at its top)
		// explains names that are "missing" though they are written: it
		// comes first, and when no file is built, it is all there is to
		// say.
		var out []string
		for _, f := range pr.Excluded {
			file := textsafe.Line(p, f.File, textsafe.ValueMax)
			if f.Constraint != "" {
				out = append(out, T("problem.excluded_line", "File", file, "Line", textsafe.Line(p, f.Constraint, textsafe.ValueMax)))
			} else {
				out = append(out, T("problem.excluded_name", "File", file))
			}
		}
		if pr.NoneBuilt {
			return strings.Join(append(out, T("problem.none_built")), "\n")
		}
		return strings.Join(append(out, T("problem."+string(pr.Kind))+"\n"+indent(textsafe.Text(p, apiLinesFor(p, aud, pr.Detail, pr.Declared, pr.DeclaredAt), textsafe.BlockMax), "  ")), "\n")
	case checker.ProblemImport:
		if !checker.Reaches(pr.Detail) {
			return T("problem.import_unneeded", "At", at, "Detail", detail, "Allowed", strings.Join(pr.Allowed, ", "))
		}
	case checker.ProblemCrash:
		if pr.Detail == "" {
			return T("problem.crash_silent")
		}
		return T("problem.crash") + "\n" + indent(textsafe.Text(p, pr.Detail, textsafe.BlockMax), "  ")
	}
	// A package must be named as its exercise's folder, the folder of
	// the file the problem names.
	want := textsafe.Line(p, path.Base(path.Dir(pr.File)), textsafe.ValueMax)
	return T("problem."+string(pr.Kind), "At", at, "Detail", detail, "Want", want)
}

// wording returns p.T for aud: for a teacher or a student it prefers the
// message of the same id after "teacher." or "student." where there is
// one, and gives each message the exercise as Exercise.
func wording(p *i18n.Printer, aud Audience, exercise string) func(id string, args ...any) string {
	prefix := map[Audience]string{Teacher: "teacher.", Student: "student."}[aud]
	if prefix == "" {
		return p.T
	}
	return func(id string, args ...any) string {
		if tid := prefix + id; i18n.Has(p.Lang(), tid) {
			id = tid
		}
		return p.T(id, append(args, "Exercise", exercise)...)
	}
}

// value is goValue for a value from the learner's code: at most
// textsafe.ValueMax bytes of it as Go writes it, with control characters
// escaped, and the note on what was cut.
func value(p *i18n.Printer, s string) string {
	head, cut := textsafe.Prefix(s, textsafe.ValueMax)
	v := goValue(head)
	for len(v) > textsafe.ValueMax+len(`""`) && head != "" {
		// Quoting makes escapes longer: cut once more, in proportion.
		var more int
		head, more = textsafe.Prefix(head, len(head)*textsafe.ValueMax/len(v))
		cut += more
		v = goValue(head)
	}
	return textsafe.EscapeLine(v) + textsafe.Cut(p, cut)
}

func goValue(s string) string {
	if s == "true" || s == "false" || strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		return s // booleans, and slices as fmt prints them
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return strconv.Quote(s)
}

func quizWhy(p *i18n.Printer, ex *course.Exercise, f *harness.Failure) string {
	for _, c := range ex.Quiz {
		if c.Case == f.Case {
			if t, ok := c.Options[harness.Answer(f.Given)]; ok {
				return t.In(p.Lang())
			}
		}
	}
	return ""
}

// quizAnswer returns a quiz answer as a report shows it: an option of
// case n of the quiz ex by its letter, as the course writes it, however
// the learner cased it; any other answer as the learner wrote it (the
// caller bounds and escapes it). Grading ignores the case either way.
func quizAnswer(ex *course.Exercise, n int, given string) string {
	if ex != nil {
		for _, c := range ex.Quiz {
			if _, ok := c.Options[harness.Answer(given)]; ok && c.Case == n {
				return harness.Answer(given)
			}
		}
	}
	return given
}

// quizOptions names the option letters of case n of the quiz ex, as the
// course gives them: "A, B" for a case of two, "A–D" for a run of three
// or more; "" when the case is not known.
func quizOptions(ex *course.Exercise, n int) string {
	if ex == nil {
		return ""
	}
	for _, c := range ex.Quiz {
		if c.Case != n {
			continue
		}
		letters := c.Letters()
		run := len(letters) >= 3
		for i := 1; i < len(letters) && run; i++ {
			run = len(letters[i]) == 1 && len(letters[i-1]) == 1 && letters[i][0] == letters[i-1][0]+1
		}
		if run {
			return letters[0] + "–" + letters[len(letters)-1]
		}
		return strings.Join(letters, ", ")
	}
	return ""
}

func crashText(p *i18n.Printer, crash string) string {
	if crash == "" {
		return p.T("test.crash_silent")
	}
	return textsafe.Text(p, crash, textsafe.BlockMax)
}

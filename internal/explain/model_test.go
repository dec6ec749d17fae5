package explain

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
)

// breakerCall is a failing test of an exercise whose driver observes two
// values after each call.
func breakerCall() (*course.Exercise, *checker.Result) {
	ex := &course.Exercise{ID: "breakercall", Points: 4}
	ex.Suite.Tests = []harness.Test{{Name: "edge/wait-boundary", New: []float64{1, 50}, Steps: []harness.Step{
		{Call: "CallFail", Args: []float64{0}}, {Call: "CallOK", Args: []float64{49}},
		{Call: "CallOK", Args: []float64{50}}, {Call: "CallOK", Args: []float64{51}},
		{Call: "CallOK", Args: []float64{52}}, {Call: "CallOK", Args: []float64{53}},
	}}}
	f := &harness.Failure{
		Kind: harness.Mismatch, New: []float64{1, 50}, Step: 2, Call: "CallOK(49)", Observe: "State(), now()",
		Done: []harness.Done{{Call: "CallFail(0)", Got: harness.Result{Ret: `error "down"`, Obs: "open, 0"}}},
		Want: harness.Result{Ret: "ErrOpen", Obs: "open, 49"},
		Got:  harness.Result{Ret: "ErrOpen", Obs: "half_open, 49"},
	}
	res := &checker.Result{Exercise: ex.ID, Status: checker.Fail, MaxScore: 4, Tests: []checker.Test{
		{Name: "edge/wait-boundary", Status: checker.Fail, Failure: f},
	}}
	return ex, res
}

// TestModelAndTextAgree: the explanation's step and values are those the
// text shows, one value per observation.
func TestModelAndTextAgree(t *testing.T) {
	for _, lang := range i18n.Languages {
		p := i18n.New(lang)
		ex, res := breakerCall()
		te := ExplainTest(p, ex, res, &res.Tests[0])
		text := Test(p, ex, res, &res.Tests[0])

		assert.Equal(t, 2, te.Step)
		require.NotNil(t, te.Trace)
		assert.Equal(t, []string{"State()", "now()"}, te.Trace.Observe)
		row := te.Trace.Failing()
		require.NotNil(t, row)
		assert.Equal(t, 2, row.N)
		assert.Equal(t, "CallOK(49)", row.Call)
		assert.Equal(t, Cell{Want: `"ErrOpen"`, Got: `"ErrOpen"`}, row.Ret)
		assert.Equal(t, []Cell{{Want: `"open"`, Got: `"half_open"`, Differs: true}, {Want: "49", Got: "49"}}, row.Obs)

		assert.Contains(t, text, te.Headline)
		assert.Contains(t, te.Headline, "2")
		assert.Contains(t, te.Headline, "CallOK(49)")
		assert.Contains(t, text, p.T("trace.want")+` "ErrOpen", State() = "open", now() = 49`)
		assert.Contains(t, text, p.T("trace.got")+` "ErrOpen", State() = "half_open", now() = 49`)
		assert.Contains(t, text, `✗ 2  CallOK(49)`)
		// The steps after the departure, from the suite, without values.
		var after []string
		for _, r := range te.Trace.Rows {
			if r.Kind == RowAfter {
				after = append(after, r.Call)
				assert.Empty(t, r.Obs)
			}
		}
		assert.Equal(t, []string{"CallOK(50)", "CallOK(51)", "CallOK(52)"}, after)
		assert.Contains(t, text, "· 3  CallOK(50)")
		assert.NotContains(t, text, "CallOK(53)")
	}
}

func TestLabelledObservationsAreCells(t *testing.T) {
	f := &harness.Failure{Kind: harness.Mismatch, Step: 1, Call: "checkout.TryAcquire()", Observe: "InUse()",
		Want: harness.Result{Ret: "true", Obs: "recommendations 0, checkout 1"},
		Got:  harness.Result{Ret: "true", Obs: "recommendations -1, checkout 1"}}
	p := i18n.New("en")
	res := &checker.Result{Status: checker.Fail, Tests: []checker.Test{{Name: "random", Status: checker.Fail, Failure: f}}}
	te := ExplainTest(p, nil, res, &res.Tests[0])
	assert.Equal(t, []string{"recommendations.InUse()", "checkout.InUse()"}, te.Trace.Observe)
	row := te.Trace.Failing()
	assert.Equal(t, []Cell{{Want: "0", Got: "-1", Differs: true}, {Want: "1", Got: "1"}}, row.Obs)
	assert.Equal(t, "true, recommendations.InUse() = -1, checkout.InUse() = 1", Side(p, "InUse()", f.Got))
}

func TestLongRunsAreElided(t *testing.T) {
	f := &harness.Failure{Kind: harness.Mismatch, Step: 31, Call: "Release()", Observe: "InUse()",
		Want: harness.Result{Obs: "0"}, Got: harness.Result{Obs: "-1"}}
	f.Done = append(f.Done, harness.Done{Call: "TryAcquire()", Got: harness.Result{Ret: "true", Obs: "1"}})
	for range 29 {
		f.Done = append(f.Done, harness.Done{Call: "TryAcquire()", Got: harness.Result{Ret: "false", Obs: "1"}})
	}
	p := i18n.New("en")
	res := &checker.Result{Status: checker.Fail, Tests: []checker.Test{{Name: "random", Status: checker.Fail, Failure: f}}}
	te := ExplainTest(p, nil, res, &res.Tests[0])
	var kinds []string
	for _, r := range te.Trace.Rows {
		kinds = append(kinds, fmt.Sprintf("%s%d", r.Kind, r.N))
	}
	assert.Equal(t, []string{"new0", "step1", "step2", "step3", "elided4", "step30", "failing31"}, kinds)
	assert.Equal(t, 26, te.Trace.Rows[4].Elided)
	text := Test(p, nil, res, &res.Tests[0])
	assert.Contains(t, text, "… 26 more steps like these …")
	assert.Less(t, strings.Count(text, "\n"), 12)
}

// TestPanicInObservationNamesTheStep: when the observation after a step
// panics, the step is the suite's call, not the observation.
func TestPanicInObservationNamesTheStep(t *testing.T) {
	ex := &course.Exercise{ID: "circuitbreaker"}
	ex.Suite.Tests = []harness.Test{{Name: "edge/x", New: []float64{3, 5}, Steps: []harness.Step{
		{Call: "Failure", Args: []float64{0}}, {Call: "Failure", Args: []float64{1}}}}}
	f := &harness.Failure{Kind: harness.Panicked, New: []float64{3, 5}, Step: 2, Call: "State()", Observe: "State()",
		Done:  []harness.Done{{Call: "Failure(0)", Got: harness.Result{Obs: "closed"}}},
		Panic: "boom", Frame: "github.com/kurs-course/kurs/circuitbreaker/circuitbreaker.go:12"}
	p := i18n.New("en")
	res := &checker.Result{Status: checker.Fail, Tests: []checker.Test{{Name: "edge/x", Status: checker.Fail, Failure: f}}}
	te := ExplainTest(p, ex, res, &res.Tests[0])
	assert.Equal(t, "Step 2, Failure(1), returned, but State() panicked right after it: boom (at circuitbreaker/circuitbreaker.go:12)", te.Headline)
	row := te.Trace.Failing()
	assert.True(t, row.Panicked && row.InObserve)
	assert.Equal(t, "Failure(1)", row.Call)
}

// TestQuizExplainsEveryCase: every wrong case is explained and every
// right one marked right; none is a failing test.
func TestQuizExplainsEveryCase(t *testing.T) {
	c, err := course.Load(os.DirFS("../.."))
	require.NoError(t, err)
	ex, ok := c.Exercise("lbquiz")
	require.True(t, ok)
	require.Equal(t, course.KindQuiz, ex.Kind())
	require.GreaterOrEqual(t, len(ex.Quiz), 3)
	wrong := func(qc course.QuizCase) string {
		for _, l := range []string{"A", "B", "C", "D"} {
			if _, ok := qc.Options[l]; ok && l != qc.Answer {
				return l
			}
		}
		return ""
	}
	res := &checker.Result{Exercise: ex.ID, Status: checker.Fail, Score: 1, MaxScore: ex.Points}
	for i, qc := range ex.Quiz[:3] {
		name := fmt.Sprintf("case%d", qc.Case)
		if i == 0 {
			res.Tests = append(res.Tests, checker.Test{Name: name, Status: checker.Pass,
				Note: &harness.Failure{Kind: harness.Quiz, Pass: true, Case: qc.Case, Given: qc.Answer}})
			continue
		}
		res.Tests = append(res.Tests, checker.Test{Name: name, Status: checker.Fail,
			Failure: &harness.Failure{Kind: harness.Quiz, Case: qc.Case, Given: wrong(qc)}})
	}
	p := i18n.New("en")
	e := Explain(p, ex, res, Options{})
	assert.True(t, e.Quiz)
	assert.Len(t, e.Tests, 3)
	assert.Empty(t, e.Others)
	assert.Equal(t, "1 of 3 cases right", e.Summary)
	text := e.Text(p, TextOptions{})
	q := ex.Quiz
	assert.Contains(t, text, fmt.Sprintf("  ✓ Case %d: right. %s", q[0].Case, q[0].Options[q[0].Answer].In("en")))
	for _, qc := range q[1:3] {
		assert.Contains(t, text, fmt.Sprintf("  ✗ Case %d: %s is not the best choice. %s", qc.Case, wrong(qc), qc.Options[wrong(qc)].In("en")))
	}
	assert.Contains(t, text, "Scoring: each case answered right")
	assert.NotContains(t, text, "tests fail")
	msg := Message(p, ex, res)
	assert.Contains(t, msg, fmt.Sprintf("Case %d: %s", q[1].Case, wrong(q[1])))
	assert.Contains(t, msg, fmt.Sprintf("Case %d: %s", q[2].Case, wrong(q[2])))
}

func TestSameValueGuardsNaN(t *testing.T) {
	assert.True(t, sameValue("1", "1.0000000000001"))
	assert.False(t, sameValue("NaN", "1"))
	assert.False(t, sameValue("1", "NaN"))
	assert.True(t, sameValue("NaN", "NaN"), "the same text is the same value")
	assert.False(t, sameValue("closed", "open"))
}

// TestStateAfterNewIsShown: the row of New carries what the learner's
// value showed right after it was made.
func TestStateAfterNewIsShown(t *testing.T) {
	p := i18n.New("en")
	ex, res := breakerCall()
	res.Tests[0].Failure.Init = &harness.Result{Obs: "closed, 0"}
	te := ExplainTest(p, ex, res, &res.Tests[0])
	require.NotEmpty(t, te.Trace.Rows)
	first := te.Trace.Rows[0]
	assert.Equal(t, RowNew, first.Kind)
	assert.Equal(t, []Cell{{Want: `"closed"`, Got: `"closed"`}, {Want: "0", Got: "0"}}, first.Obs)
	assert.Regexp(t, `New\(1, 50\) +→ State\(\) = "closed", now\(\) = 0`, Test(p, ex, res, &res.Tests[0]))
}

// TestTestsAreNamedByTitle: a failing test is headed by its title in the
// learner's language, then its kind and id; the further failing tests are
// listed by title and id, one a line; a test without a title keeps its id.
func TestTestsAreNamedByTitle(t *testing.T) {
	c, err := course.Load(os.DirFS("../.."))
	require.NoError(t, err)
	ex, ok := c.Exercise("circuitbreaker")
	require.True(t, ok)
	fail := func(name string) checker.Test {
		return checker.Test{Name: name, Status: checker.Fail, Failure: &harness.Failure{Kind: harness.Mismatch, New: []float64{3, 1}, Step: 1,
			Call: "Failure(0)", Observe: "State()", Want: harness.Result{Obs: "closed"}, Got: harness.Result{Obs: "open"}}}
	}
	res := &checker.Result{Exercise: ex.ID, Status: checker.Fail, MaxScore: ex.Points, Tests: []checker.Test{
		fail("edge/failures-must-be-consecutive"), fail("edge/wait-zero"), fail("edge/no-title"),
	}}
	for lang, want := range map[string]struct{ heading, other string }{
		"de": {"Test: Nur Fehler in Folge öffnen den Breaker (Grenzfall, edge/failures-must-be-consecutive)",
			"Bei Wartezeit 0 kommt die Probe sofort (edge/wait-zero)"},
		"en": {"Test: Only failures in a row open the breaker (edge case, edge/failures-must-be-consecutive)",
			"With wait 0, the probe comes at once (edge/wait-zero)"},
	} {
		p := i18n.New(lang)
		e := Explain(p, ex, res, Options{})
		require.Len(t, e.Tests, 1)
		te := e.Tests[0]
		assert.Equal(t, "edge/failures-must-be-consecutive", te.Name, "the id stays the key")
		assert.Equal(t, ex.TestTitle(te.Name, lang), te.Title)
		assert.Equal(t, want.heading, te.Heading)
		assert.Equal(t, []string{want.other, "edge/no-title"}, e.Others)
		text := e.Text(p, TextOptions{})
		assert.Contains(t, text, "\n  "+want.heading+"\n    ")
		assert.Contains(t, text, "\n    "+want.other+"\n    edge/no-title\n")
	}
	p := i18n.New("en")
	assert.Equal(t, "Test edge/no-title (edge case)", testHeading(p, ex, "edge/no-title"))
	assert.Equal(t, "Test seed/x (worked example)", testHeading(p, nil, "seed/x"), "no course, no title")
	quiz, _ := c.Exercise("lbquiz")
	assert.Equal(t, "Test: Case 2 (case2)", testHeading(p, quiz, "case2"), "a quiz case is its label")
}

// backoffOverflow is a failure at step 64 of 64 doublings, each returning
// a different delay, so that no run of steps is alike.
func backoffOverflow() *checker.Result {
	f := &harness.Failure{Kind: harness.Mismatch, Step: 64, Call: "Next()",
		Want: harness.Result{Ret: "30s"}, Got: harness.Result{Ret: "-9223372036.854775808s"}}
	for i := range 63 {
		f.Done = append(f.Done, harness.Done{Call: "Next()", Got: harness.Result{Ret: fmt.Sprintf("%dns", uint64(1)<<i)}})
	}
	return &checker.Result{Exercise: "backoff", Status: checker.Fail, MaxScore: 4, Tests: []checker.Test{{Name: "edge/overflow", Status: checker.Fail, Failure: f}}}
}

// TestLongTraceShowsTheStepsAroundTheDeparture: kurs check shows the
// constructor, the last steps before the departure and the departure, and
// says how many it left out and how to see them; --full shows all, and so
// do the documents.
func TestLongTraceShowsTheStepsAroundTheDeparture(t *testing.T) {
	ex := &course.Exercise{ID: "backoff", Points: 4}
	res := backoffOverflow()
	for _, lang := range i18n.Languages {
		p := i18n.New(lang)
		var b strings.Builder
		require.NoError(t, WriteText(&b, p, []Graded{{Exercise: ex, Result: res}}, TextOptions{}))
		text := b.String()
		assert.Contains(t, text, p.T("trace.earlier", "Count", 64-1-AroundSteps), lang)
		assert.Contains(t, text, "--full")
		assert.NotContains(t, text, " 55  Next()")
		assert.Contains(t, text, " 56  Next()")
		assert.Contains(t, text, "✗ 64  Next()")
		assert.Less(t, strings.Count(text, "\n"), 20, "the departure is on the first screen:\n%s", text)

		b.Reset()
		require.NoError(t, WriteText(&b, p, []Graded{{Exercise: ex, Result: res}}, TextOptions{Full: true}))
		assert.Contains(t, b.String(), "  1  Next()")
		assert.Contains(t, b.String(), " 58  Next()")
		assert.NotContains(t, b.String(), "--full")
		assert.Contains(t, Test(p, ex, res, &res.Tests[0]), " 58  Next()", "a document keeps every step")
	}
}

// TestTraceFitsTheTerminal: in a terminal, the rows of a trace and the
// expected and received values fit the width, each going on under itself.
func TestTraceFitsTheTerminal(t *testing.T) {
	ex, res := breakerCall()
	f := res.Tests[0].Failure
	f.Want.Obs = "open, 49, " + strings.Repeat("waiting callers ", 4)
	f.Got.Obs = "half_open, 49, " + strings.Repeat("waiting callers ", 5)
	for _, lang := range i18n.Languages {
		for _, width := range []int{60, 80} {
			var b strings.Builder
			require.NoError(t, WriteText(&b, i18n.New(lang), []Graded{{Exercise: ex, Result: res}}, TextOptions{Width: width}))
			for l := range strings.Lines(b.String()) {
				assert.LessOrEqual(t, utf8.RuneCountInString(strings.TrimSuffix(l, "\n")), width, "%s: %q", lang, l)
			}
		}
	}
}

// TestExplanationMarkdownIsRendered: a misconception's explanation is
// Markdown; the terminal shows it rendered and wrapped to the width, a
// pipe rendered with each paragraph on one line.
func TestExplanationMarkdownIsRendered(t *testing.T) {
	src := "The probe begins *after* the backend\nanswers, so `State()` stays **open** for the whole wait of the breaker.\n\nA second paragraph."
	e := &Explanation{Exercise: "circuitbreaker", Status: checker.Fail, Misconception: &Named{Line: "Likely misconception: x", Explanation: src}}
	p := i18n.New("en")
	wide := e.Text(p, TextOptions{})
	assert.Contains(t, wide, "    The probe begins after the backend answers, so `State()` stays open for the whole wait of the breaker.\n\n    A second paragraph.")
	assert.NotContains(t, wide, "*")
	narrow := e.Text(p, TextOptions{Width: 40})
	assert.Contains(t, narrow, "    The probe begins after the backend\n    answers,")
	colored := e.Text(p, TextOptions{Width: 60, Color: true})
	assert.Contains(t, colored, "\x1b[3mafter\x1b[23m")
}

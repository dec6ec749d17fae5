package web

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
)

// The page and kurs check explain a failing test alike: the same headline,
// the same step, the same rows (elided and greyed alike) and the same
// values. These tests read each explanation back from what it shows, the
// terminal's text and the page's HTML, and compare the two.

// shownTrace is a failing test's explanation as one rendering shows it.
type shownTrace struct {
	Heading  string // the test's title, kind and id
	Random   string // which random trace, for one
	Headline string
	Step     int
	Rows     []shownRow
	// Want and Got are the failing step's values; empty after a panic or
	// a timeout, where neither rendering compares values.
	Want, Got string
}

// shownRow is one row of a trace: its kind (new, step, failing, elided,
// after), number, call and what came back.
type shownRow struct {
	Kind, N, Call, Got string
}

// fromText reads the first explained test back from kurs check's text.
func fromText(t *testing.T, p *i18n.Printer, text string) shownTrace {
	t.Helper()
	var st shownTrace
	lines := strings.Split(text, "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "  "+p.T("test.name")) {
		i++
	}
	require.Less(t, i+1, len(lines), "no test in:\n%s", text)
	st.Heading = strings.TrimSpace(lines[i])
	// The lines of the test's text, indented by four; the trace's by six.
	i++
	var head []string
	for ; i < len(lines) && strings.HasPrefix(lines[i], "    ") && lines[i][4] != ' '; i++ {
		head = append(head, strings.TrimSpace(lines[i]))
	}
	require.NotEmpty(t, head)
	if len(head) > 1 {
		st.Random = head[0]
	}
	st.Headline = head[len(head)-1]
	wantKey, gotKey, after := p.T("trace.want"), strings.TrimSpace(p.T("trace.got")), p.T("trace.after")
	for _, l := range lines[i:] {
		trimmed := strings.TrimSpace(l)
		switch {
		case !strings.HasPrefix(l, "      "):
			return st // the end of the test's block
		case strings.HasPrefix(trimmed, wantKey):
			st.Want = strings.TrimSpace(strings.TrimPrefix(trimmed, wantKey))
			continue
		case strings.HasPrefix(trimmed, gotKey):
			st.Got = strings.TrimSpace(strings.TrimPrefix(trimmed, gotKey))
			continue
		}
		rest := []rune(strings.TrimSuffix(strings.TrimRight(l[len("    "):], " "), after))
		require.Greater(t, len(rest), 3, "%q", l)
		mark, body := string(rest[2]), strings.TrimSpace(string(rest[3:]))
		r := shownRow{}
		body, r.Got, _ = strings.Cut(body, "  → ")
		if n, call, ok := strings.Cut(body, "  "); ok && (n == "⋮" || isNumber(n)) {
			r.N, r.Call = n, strings.TrimSpace(call)
		} else {
			r.Call = strings.TrimSpace(body)
		}
		switch {
		case mark == "✗":
			r.Kind = "failing"
			st.Step, _ = strconv.Atoi(r.N)
		case mark == "·":
			r.Kind = "after"
		case r.N == "⋮":
			r.Kind = "elided"
		case r.N == "":
			r.Kind = "new"
		default:
			r.Kind = "step"
		}
		if r.Kind == "failing" && (r.Got == "panic" || r.Got == "…") {
			r.Got = ""
		}
		st.Rows = append(st.Rows, r)
	}
	return st
}

func isNumber(s string) bool { _, err := strconv.Atoi(s); return err == nil }

var (
	testNameHTML = regexp.MustCompile(`<h3 class="test-name">([^<]*)</h3>`)
	randomHTML   = regexp.MustCompile(`<p class="random">([^<]*)</p>`)
	headlineHTML = regexp.MustCompile(`<p class="headline" data-step="(-?\d+)">([^<]*)</p>`)
	headHTML     = regexp.MustCompile(`<th class="want" scope="col">(.*?)</th>`)
	rowHTML      = regexp.MustCompile(`<tr class="(\w+)"><td class="n"[^>]*>([^<]*)</td><td class="call"[^>]*>(?:<code>([^<]*)</code>)?</td>(.*?)</tr>`)
	cellHTML     = regexp.MustCompile(`<td class="(want|got|got bad|note)"[^>]*>([^<]*)</td>`)
	tagHTML      = regexp.MustCompile(`<[^>]+>`)
)

// fromPage reads the first explained test back from the page's result.
func fromPage(t *testing.T, p *i18n.Printer, page string) shownTrace {
	t.Helper()
	var st shownTrace
	m := headlineHTML.FindStringSubmatch(page)
	require.NotNil(t, m, "no headline in:\n%s", page)
	st.Step, _ = strconv.Atoi(m[1])
	st.Headline = html.UnescapeString(m[2])
	if m := testNameHTML.FindStringSubmatch(page); m != nil {
		st.Heading = html.UnescapeString(m[1])
	}
	if m := randomHTML.FindStringSubmatch(page); m != nil {
		st.Random = html.UnescapeString(m[1])
	}
	table, _, _ := strings.Cut(page[strings.Index(page, `<table class="trace"`):], "</table>")
	var heads []string // "" for the returned value, else the observation's name
	for _, h := range headHTML.FindAllStringSubmatch(table, -1) {
		if strings.HasPrefix(h[1], "<code>") {
			heads = append(heads, html.UnescapeString(tagHTML.ReplaceAllString(h[1], "")))
		} else {
			heads = append(heads, "")
		}
	}
	// side writes a row's values as the terminal does.
	side := func(values []string) string {
		var parts []string
		for i, v := range values {
			switch {
			case v == "":
			case heads[i] == "":
				parts = append(parts, v)
			default:
				parts = append(parts, heads[i]+" = "+v)
			}
		}
		return strings.Join(parts, ", ")
	}
	for _, rm := range rowHTML.FindAllStringSubmatch(table, -1) {
		r := shownRow{Kind: rm[1], N: html.UnescapeString(rm[2]), Call: html.UnescapeString(rm[3])}
		var want, got []string
		for _, c := range cellHTML.FindAllStringSubmatch(rm[4], -1) {
			v := html.UnescapeString(c[2])
			switch c[1] {
			case "want":
				want = append(want, v)
			case "note":
				if r.Kind == "elided" {
					r.Call = v
				}
			default:
				got = append(got, v)
			}
		}
		switch r.Kind {
		case "new", "step":
			r.Got = side(got)
		case "failing":
			if got[0] != p.T("web.trace.panic") && got[0] != p.T("web.trace.timeout") {
				r.Got = side(got)
				st.Want, st.Got = side(want), side(got)
			}
		}
		st.Rows = append(st.Rows, r)
	}
	return st
}

// assertSameExplanation renders res as kurs check does and as the page
// shows it (the result fragment, from the running server) and compares
// what each shows.
func assertSameExplanation(t *testing.T, ts *testServer, ex *course.Exercise, res *checker.Result) shownTrace {
	t.Helper()
	var st shownTrace
	for _, lang := range i18n.Languages {
		p := i18n.New(lang)
		var b strings.Builder
		require.NoError(t, explain.WriteText(&b, p, []explain.Graded{{Exercise: ex, Result: res}}, explain.TextOptions{}))
		code, frag := ts.get(t, "/exercise/"+ex.ID+"/result?lang="+lang)
		require.Equal(t, 200, code)
		text, page := fromText(t, p, b.String()), fromPage(t, p, frag)
		require.NotEmpty(t, text.Rows, "the text shows a trace:\n%s", b.String())
		assert.Equal(t, text, page, "kurs check:\n%s\nthe page:\n%s", b.String(), frag)
		st = text
	}
	return st
}

// TestCheckAndPageExplainAlike checks a breaker that probes one tick late
// once, through the page, and compares the page's explanation with kurs
// check's text of the same result.
func TestCheckAndPageExplainAlike(t *testing.T) {
	ts := newTestServer(t)
	late := strings.Replace(breakerSolution(t), "now-b.openedAt >= b.wait", "now-b.openedAt > b.wait", 1)
	require.NotEqual(t, breakerSolution(t), late)
	ts.write(t, "circuitbreaker/circuitbreaker.go", late)
	code, body := ts.post(t, "/exercise/circuitbreaker/check", nil)
	require.Equal(t, 200, code, body)
	ex, _ := ts.course.Exercise("circuitbreaker")
	last, _ := ts.loop.Last(ex.ID)
	res := last.Result
	require.NotNil(t, res)
	require.Equal(t, checker.Fail, res.Status)

	st := assertSameExplanation(t, ts, ex, res)
	assert.Equal(t, 8, st.Step, "the probe at Allow(9) comes a tick late")
	assert.Equal(t, `true, State() = "half_open"`, st.Want)
	assert.Equal(t, `false, State() = "open"`, st.Got)
	kinds := map[string]int{}
	for _, r := range st.Rows {
		kinds[r.Kind]++
	}
	assert.Equal(t, map[string]int{"new": 1, "step": 7, "failing": 1, "after": 3}, kinds, "the steps after the departure, greyed")
}

// TestPageExplainsAsCheckDoes gives the page results that need more than a
// plain table: a long run of equal steps, a panic in the observation after
// a step, a departure in New.
func TestPageExplainsAsCheckDoes(t *testing.T) {
	ts := newTestServer(t)
	ex, _ := ts.course.Exercise("circuitbreaker")
	show := func(f *harness.Failure) shownTrace {
		t.Helper()
		res := &checker.Result{Exercise: ex.ID, Status: checker.Fail, MaxScore: ex.Points,
			Tests: []checker.Test{{Name: "seed/threshold3-wait5", Status: checker.Fail, Failure: f}}}
		ts.loop.Remember(ex, res)
		return assertSameExplanation(t, ts, ex, res)
	}

	long := &harness.Failure{Kind: harness.Mismatch, New: []float64{3, 5}, Observe: "State()", Step: 31, Call: "Allow(40)",
		Want: harness.Result{Ret: "true", Obs: "half_open"}, Got: harness.Result{Ret: "false", Obs: "open"}, Seed: 7, Index: 2, Original: 90}
	long.Done = append(long.Done, harness.Done{Call: "Failure(0)", Got: harness.Result{Obs: "open"}})
	for i := range 29 {
		long.Done = append(long.Done, harness.Done{Call: "Allow(" + strconv.Itoa(i+1) + ")", Got: harness.Result{Ret: "false", Obs: "open"}})
	}
	st := show(long)
	assert.Equal(t, 31, st.Step)
	var elided int
	for _, r := range st.Rows {
		if r.Kind == "elided" {
			elided++
		}
	}
	assert.Equal(t, 1, elided, "the run of equal steps is cut")
	assert.Less(t, len(st.Rows), 12)

	// The observation after Failure(1) panics: the step is Failure(1).
	panicked := &harness.Failure{Kind: harness.Panicked, New: []float64{3, 5}, Step: 2, Call: "State()", Observe: "State()",
		Done:  []harness.Done{{Call: "Failure(0)", Got: harness.Result{Obs: "closed"}}},
		Panic: "boom", Frame: explain.ModulePath + "/circuitbreaker/circuitbreaker.go:12"}
	st = show(panicked)
	assert.Equal(t, 2, st.Step)
	assert.Contains(t, st.Headline, "Failure(1)")
	assert.Equal(t, "Failure(1)", st.Rows[2].Call)

	// New departs: its state is what differs.
	st = show(&harness.Failure{Kind: harness.Mismatch, New: []float64{3, 5}, Step: 0, Call: "New(3, 5)", Observe: "State()",
		Want: harness.Result{Obs: "closed"}, Got: harness.Result{Obs: "open"}})
	assert.Equal(t, 0, st.Step)
	assert.Equal(t, `State() = "open"`, st.Got)
}

// TestPageNamesTestsAsCheckDoes: the page heads a failing test with its
// title in the learner's language, then its kind and id, as kurs check
// does, and lists the further failing tests by title and id.
func TestPageNamesTestsAsCheckDoes(t *testing.T) {
	ts := newTestServer(t)
	ex, _ := ts.course.Exercise("circuitbreaker")
	f := &harness.Failure{Kind: harness.Mismatch, New: []float64{3, 1}, Step: 1, Call: "Failure(0)", Observe: "State()",
		Want: harness.Result{Obs: "closed"}, Got: harness.Result{Obs: "open"}}
	res := &checker.Result{Exercise: ex.ID, Status: checker.Fail, MaxScore: ex.Points, Tests: []checker.Test{
		{Name: "edge/failures-must-be-consecutive", Status: checker.Fail, Failure: f},
		{Name: "edge/wait-zero", Status: checker.Fail, Failure: f},
	}}
	ts.loop.Remember(ex, res)
	assertSameExplanation(t, ts, ex, res)
	for lang, want := range map[string]struct{ heading, other string }{
		"de": {"Test: Nur Fehler in Folge öffnen den Breaker (Grenzfall, edge/failures-must-be-consecutive)",
			"Bei Wartezeit 0 kommt die Probe sofort (edge/wait-zero)"},
		"en": {"Test: Only failures in a row open the breaker (edge case, edge/failures-must-be-consecutive)",
			"With wait 0, the probe comes at once (edge/wait-zero)"},
	} {
		_, frag := ts.get(t, "/exercise/"+ex.ID+"/result?lang="+lang)
		assert.Equal(t, want.heading, fromPage(t, i18n.New(lang), frag).Heading)
		assert.Contains(t, html.UnescapeString(frag), "<li>"+want.other+"</li>")
	}
}

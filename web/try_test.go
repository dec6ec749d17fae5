package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// breakerOpensLate opens one failure after the threshold: it answers like
// the reference until the threshold is reached.
func breakerOpensLate(t *testing.T) string {
	t.Helper()
	ref := breakerSolution(t)
	late := strings.Replace(ref, "b.failures >= b.threshold", "b.failures > b.threshold", 1)
	require.NotEqual(t, ref, late)
	return late
}

// tryRows finds the rows of a tried trace: step, call, mine, reference,
// and the mark's words.
var tryRowRE = regexp.MustCompile(`<tr( class="differs")?><td class="n"[^>]*>([0-9]*)</td><td class="call"><code>([^<]*)</code></td><td class="mine[^"]*"[^>]*><span>([^<]*)</span></td><td class="ref"[^>]*><span>([^<]*)</span></td><td class="mark"[^>]*><span><span aria-hidden="true">[^<]*</span>([^<]*)</span></td></tr>`)

func tryRows(t *testing.T, body string) [][]string {
	t.Helper()
	var out [][]string
	for _, m := range tryRowRE.FindAllStringSubmatch(body, -1) {
		out = append(out, []string{m[2], m[3], unescape(m[4]), unescape(m[5]), m[6]})
	}
	return out
}

func unescape(s string) string {
	return strings.NewReplacer("&#34;", `"`, "&quot;", `"`, "&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

func TestTryPanel(t *testing.T) {
	ts := newTestServer(t)

	// A trace exercise offers the panel, with an example to start from;
	// a quiz has no calls to try.
	code, page := ts.get(t, "/exercise/circuitbreaker")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, page, `<h2 id="s8">Try a trace</h2>`)
	assert.Contains(t, page, `action="/exercise/circuitbreaker/try"`)
	assert.Regexp(t, `name="trace" value="New\(3, 5\) Failure\(0\) Failure\(1\) Success\(\) Failure\(2\)[^"]*"`, page)
	assert.Contains(t, page, "for example New(3, 5) Failure(0) Failure(1).")
	_, page = ts.get(t, "/exercise/circuitbreaker?lang=de")
	assert.Contains(t, page, `<h2 id="s8">Spur ausprobieren</h2>`)
	// Each exercise's example is a trace of its own calls.
	_, page = ts.get(t, "/exercise/twochoices")
	assert.Regexp(t, `name="trace" value="New\([0-9, ]*\) Pick\(`, page)
	assert.Regexp(t, `for example New\([0-9, ]*\) Pick\(`, page)
	assert.NotContains(t, page, "Failure(0)")
	_, page = ts.get(t, "/exercise/bulkheadquiz")
	assert.NotContains(t, page, "try-form")
	code, body := ts.post(t, "/exercise/bulkheadquiz/try", url.Values{"trace": {"New()"}})
	assert.Equal(t, http.StatusNotFound, code)
	assert.Contains(t, body, "is a quiz")
}

func TestTryGuarded(t *testing.T) {
	ts := newTestServer(t)
	form := url.Values{"trace": {"New(3, 5)"}}
	code, _ := ts.do(t, "POST", "/exercise/circuitbreaker/try", form, map[string]string{"Origin": ts.url, "X-Kurs-Fragment": "1"})
	assert.Equal(t, http.StatusForbidden, code, "no token")
	withToken := url.Values{"trace": {"New(3, 5)"}, tokenField: {ts.token}}
	code, _ = ts.do(t, "POST", "/exercise/circuitbreaker/try", withToken, map[string]string{"Origin": "http://attacker.example"})
	assert.Equal(t, http.StatusForbidden, code, "another site's form, even with the token")
	code, _ = ts.do(t, "POST", "/exercise/circuitbreaker/try", withToken, map[string]string{"Host": "attacker.example:" + ts.port})
	assert.Equal(t, http.StatusMisdirectedRequest, code, "a rebound name")
}

func TestTrySyntaxError(t *testing.T) {
	ts := newTestServer(t)
	code, body := ts.post(t, "/exercise/circuitbreaker/try", url.Values{"trace": {"New(3, 5) Fail(0)"}})
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Contains(t, body, "The trace has a mistake at column 11: there is no call Fail in this exercise; the calls are: Allow, Failure, State, Success")
	assert.Contains(t, body, `New(3, 5) <mark>F</mark>ail(0)`, "the mistake is marked where it is")
	assert.NotContains(t, body, "<table")

	code, body = ts.post(t, "/exercise/circuitbreaker/try?lang=de", url.Values{"trace": {"New(3, 5) Allow()"}})
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Contains(t, body, "Die Spur hat einen Fehler in Spalte 11: Allow erwartet 1 Argument, nicht 0")

	// Past the end: the mark stands after the last character.
	_, body = ts.post(t, "/exercise/circuitbreaker/try", url.Values{"trace": {"New(3, 5) Allow(1"}})
	assert.Contains(t, body, `Allow(1<mark> </mark>`)
	assert.Contains(t, body, "column 18: expected a comma and the next number, or “)” to close Allow(…)", "what was expected, in words")

	// An empty trace is said to be empty, and nothing runs.
	code, body = ts.post(t, "/exercise/circuitbreaker/try", url.Values{"trace": {" "}})
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Contains(t, body, "The trace is empty: write New and its arguments first, then the calls, e.g. New(3, 5) Failure(0) Failure(1)")
	assert.NotContains(t, body, "column")
	assert.NotContains(t, body, "<table")

	// Learner-controlled text is escaped.
	_, body = ts.post(t, "/exercise/circuitbreaker/try", url.Values{"trace": {"New(3, 5) <script>x</script>"}})
	assert.NotContains(t, body, "<script>")
	assert.Contains(t, body, "&lt;")
}

func TestTryRunsOnTheLearnersCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	ts := newTestServer(t)
	ts.write(t, "circuitbreaker/circuitbreaker.go", breakerOpensLate(t))
	before := ts.progress(t).Of("circuitbreaker")

	trace := "New(3, 5) Failure(0) Failure(1) Failure(2) Allow(3)"
	code, body := ts.post(t, "/exercise/circuitbreaker/try", url.Values{"trace": {trace}})
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, "✗ The answers first differ at step 3.")
	assert.Equal(t, [][]string{
		{"", "New(3, 5)", `State() = "closed"`, `State() = "closed"`, "same"},
		{"1", "Failure(0)", `State() = "closed"`, `State() = "closed"`, "same"},
		{"2", "Failure(1)", `State() = "closed"`, `State() = "closed"`, "same"},
		{"3", "Failure(2)", `State() = "closed"`, `State() = "open"`, "differs"},
		{"4", "Allow(3)", `true, State() = "closed"`, `false, State() = "open"`, "differs"},
	}, tryRows(t, body))
	assert.Contains(t, body, `<td class="mine bad"`, "the learner's differing answers are marked")
	assert.Contains(t, body, "<th scope=\"col\">Reference</th>")

	// In German.
	_, body = ts.post(t, "/exercise/circuitbreaker/try?lang=de", url.Values{"trace": {trace}})
	assert.Contains(t, body, "Die Antworten weichen zuerst bei Schritt 3 ab.")
	assert.Contains(t, body, "weicht ab")

	// The reference's own code answers alike at every step.
	ts.write(t, "circuitbreaker/circuitbreaker.go", breakerSolution(t))
	_, body = ts.post(t, "/exercise/circuitbreaker/try", url.Values{"trace": {trace + " Allow(8) Success()"}})
	rows := tryRows(t, body)
	require.Len(t, rows, 7)
	for _, r := range rows {
		assert.Equal(t, "same", r[4], r[1])
	}
	assert.Contains(t, body, "✓ Your code answers like the reference at every step of this trace.")

	// Code that does not build says so.
	ts.write(t, "circuitbreaker/circuitbreaker.go", "package circuitbreaker\n\nfunc New( {\n")
	code, body = ts.post(t, "/exercise/circuitbreaker/try", url.Values{"trace": {trace}})
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `class="problem"`)
	assert.Contains(t, body, "circuitbreaker.go:3")

	// Without the page's script, the whole page comes back with the table.
	ts.write(t, "circuitbreaker/circuitbreaker.go", breakerOpensLate(t))
	code, body = ts.do(t, "POST", "/exercise/circuitbreaker/try", url.Values{"trace": {trace}, tokenField: {ts.token}}, map[string]string{"Origin": ts.url})
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "<!doctype html>")
	assert.Len(t, tryRows(t, body), 5)
	assert.Contains(t, body, `value="`+trace+`"`, "the field keeps the trace")

	// A try records nothing: no progress, no result.
	assert.Equal(t, before, ts.progress(t).Of("circuitbreaker"))
	_, checked := ts.loop.Last("circuitbreaker")
	assert.False(t, checked)
}

// One try at a time per exercise: another one meanwhile is turned away.
func TestTryOneAtATime(t *testing.T) {
	ts := newTestServer(t)
	st := ts.exercises["circuitbreaker"]
	st.trying.Lock()
	code, body := ts.post(t, "/exercise/circuitbreaker/try", url.Values{"trace": {"New(3, 5)"}})
	st.trying.Unlock()
	assert.Equal(t, http.StatusConflict, code)
	assert.Contains(t, body, "already running")
}

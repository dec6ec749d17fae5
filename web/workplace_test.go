package web

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/explain"
)

// backups returns the backups of one file of the workspace.
func (ts *testServer) backups(t *testing.T, rel string) []string {
	t.Helper()
	b, err := filepath.Glob(filepath.Join(ts.dir, ".kurs", "backup", "*", filepath.FromSlash(rel)))
	require.NoError(t, err)
	return b
}

func TestSaveFromThePage(t *testing.T) {
	ts := newTestServer(t)
	const rel = "tokenbucket/tokenbucket.go"
	old, err := os.ReadFile(filepath.Join(ts.dir, filepath.FromSlash(rel)))
	require.NoError(t, err)
	_, page := ts.get(t, "/exercise/tokenbucket")
	base := regexp.MustCompile(`data-rel="tokenbucket/tokenbucket.go" data-sum="([0-9a-f]{64})"`).FindStringSubmatch(page)
	require.NotNil(t, base, "the page names the version it edits")
	assert.Equal(t, sum(old), base[1])

	// A save writes the file, backs up the old one and checks.
	edited := strings.Replace(string(old), "package tokenbucket", "package tokenbucket // edited", 1)
	code, body := ts.post(t, "/exercise/tokenbucket/save", url.Values{"file": {rel}, "content": {edited}, "base": {base[1]}})
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, `id="verdict"`, "checked at once")
	assert.Contains(t, body, `data-sum="`+sum([]byte(edited))+`"`, "the result names the saved version")
	data, err := os.ReadFile(filepath.Join(ts.dir, filepath.FromSlash(rel)))
	require.NoError(t, err)
	assert.Equal(t, edited, string(data))
	backups := ts.backups(t, rel)
	require.Len(t, backups, 1)
	kept, err := os.ReadFile(backups[0])
	require.NoError(t, err)
	assert.Equal(t, string(old), string(kept))

	// The same text again: nothing written, no backup.
	code, body = ts.post(t, "/exercise/tokenbucket/save", url.Values{"file": {rel}, "content": {edited}, "base": {sum([]byte(edited))}})
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, "Nothing had changed")
	assert.Len(t, ts.backups(t, rel), 1)

	// A form's CRLF line breaks do not end up in an LF file.
	code, _ = ts.post(t, "/exercise/tokenbucket/save", url.Values{"file": {rel}, "content": {strings.ReplaceAll(edited+"// x\n", "\n", "\r\n")}, "base": {sum([]byte(edited))}})
	require.Equal(t, http.StatusOK, code)
	data, err = os.ReadFile(filepath.Join(ts.dir, filepath.FromSlash(rel)))
	require.NoError(t, err)
	assert.NotContains(t, string(data), "\r")

	// Saved meanwhile in another editor: refused, unless forced.
	ts.write(t, rel, "package tokenbucket // from my editor\n")
	code, body = ts.post(t, "/exercise/tokenbucket/save", url.Values{"file": {rel}, "content": {"package tokenbucket // page\n"}, "base": {sum(data)}})
	assert.Equal(t, http.StatusConflict, code)
	assert.Contains(t, body, "changed outside the page")
	data, err = os.ReadFile(filepath.Join(ts.dir, filepath.FromSlash(rel)))
	require.NoError(t, err)
	assert.Equal(t, "package tokenbucket // from my editor\n", string(data))
	code, _ = ts.post(t, "/exercise/tokenbucket/save", url.Values{"file": {rel}, "content": {"package tokenbucket // page\n"}, "base": {sum(data)}, "force": {"1"}})
	assert.Equal(t, http.StatusOK, code)

	// A large file passes the guard; one over the checker's limit does
	// not get written.
	big := "package tokenbucket\n\n// " + strings.Repeat("ä", 300<<10) + "\n"
	code, body = ts.post(t, "/exercise/tokenbucket/save", url.Values{"file": {rel}, "content": {big}, "base": {sum([]byte("package tokenbucket // page\n"))}})
	require.Equal(t, http.StatusOK, code, body)
	code, _ = ts.post(t, "/exercise/tokenbucket/save", url.Values{"file": {rel}, "content": {strings.Repeat("x", maxSource+1)}, "base": {sum([]byte(big))}})
	assert.Equal(t, http.StatusRequestEntityTooLarge, code)

	// Only the exercise's own files, and not without the token.
	code, _ = ts.post(t, "/exercise/tokenbucket/save", url.Values{"file": {"circuitbreaker/circuitbreaker.go"}, "content": {"x"}, "base": {""}})
	assert.Equal(t, http.StatusForbidden, code)
	code, _ = ts.post(t, "/exercise/tokenbucket/save", url.Values{"file": {"../kurs.toml"}, "content": {"x"}, "base": {""}})
	assert.Equal(t, http.StatusForbidden, code)
	code, _ = ts.do(t, "POST", "/exercise/tokenbucket/save", url.Values{"file": {rel}, "content": {"x"}, "base": {""}}, nil)
	assert.Equal(t, http.StatusForbidden, code)
}

func TestQuizInThePage(t *testing.T) {
	ts := newTestServer(t)
	_, page := ts.get(t, "/exercise/bulkheadquiz?lang=en")
	assert.Regexp(t, `(?s)value="D">\s*<span class="letter">D</span> <span class="text">Fixed, separate pools`, page, "the option's text in its label")
	assert.NotContains(t, page, "How to answer", "no instructions about the file")
	assert.NotContains(t, page, "<strong>Case 1.</strong>", "the legend numbers the case")
	assert.Equal(t, 1, strings.Count(page, `type="submit" id="quiz-submit"`))
	assert.NotContains(t, page, `id="check-button"`, "one button")

	_, de := ts.get(t, "/exercise/bulkheadquiz?lang=de")
	assert.Contains(t, de, "Feste, getrennte Pools")
	assert.Contains(t, de, "<legend>Fall 1 ", "the case's label from quiz.de.md")

	// Cases, questions and options are the course model's.
	ex, _ := ts.course.Exercise("bulkheadquiz")
	for _, c := range ex.Quiz {
		assert.Contains(t, page, "<legend>"+c.Label.In("en")+" ")
		for _, l := range c.Letters() {
			assert.Contains(t, page, `value="`+l+`"`)
		}
	}

	// The scoring rule, in the words of kurs check, in both languages.
	for lang, page := range map[string]string{"en": page, "de": de} {
		assert.Contains(t, page, `<p class="scoring" id="scoring">`+template.HTMLEscapeString(explain.Scoring(i18n.New(lang), ex))+`</p>`, lang)
	}
	_, cb := ts.get(t, "/exercise/circuitbreaker?lang=de")
	cbEx, _ := ts.course.Exercise("circuitbreaker")
	assert.Contains(t, cb, template.HTMLEscapeString(explain.Scoring(i18n.New("de"), cbEx)), "all or nothing for code")

	// Two wrong answers: both explained, and no case counted as a test
	// that fails.
	code, body := ts.post(t, "/exercise/bulkheadquiz/answer", url.Values{"case1": {"A"}, "case2": {"B"}})
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, "✗ Case 1: A is not the best choice.")
	assert.Contains(t, body, "✗ Case 2: B is not the best choice.")
	assert.Contains(t, body, "0 of 2 cases right")
	assert.NotContains(t, body, "tests fail")

	// Each change backs up once; a check without a change does not.
	backups := len(ts.backups(t, "bulkheadquiz/bulkheadquiz.go"))
	code, body = ts.post(t, "/exercise/bulkheadquiz/answer", url.Values{"case1": {"D"}, "case2": {"B"}})
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, `data-cases="1=pass 2=fail "`)
	assert.Contains(t, body, "✓ Case 1: right.", "a right case is marked right")
	for range 3 {
		code, body = ts.post(t, "/exercise/bulkheadquiz/answer", url.Values{"case1": {"D"}, "case2": {"B"}})
		require.Equal(t, http.StatusOK, code, body)
	}
	assert.Len(t, ts.backups(t, "bulkheadquiz/bulkheadquiz.go"), backups+1)
	_, page = ts.get(t, "/exercise/bulkheadquiz?lang=en")
	assert.Regexp(t, `<fieldset id="case1" class="case pass">`, page)
	assert.Contains(t, page, "✓ right")
	assert.Contains(t, page, "✗ not right")
}

func TestMarkedLineAndNext(t *testing.T) {
	ts := newTestServer(t)
	// New returns a breaker with the wrong state: the first trace fails
	// at New, and the page marks New.
	ts.write(t, "circuitbreaker/circuitbreaker.go", strings.Replace(breakerSolution(t), `state: "closed"`, `state: "open"`, 1))
	code, body := ts.post(t, "/exercise/circuitbreaker/check", nil)
	require.Equal(t, http.StatusOK, code, body)
	assert.Regexp(t, `data-file="circuitbreaker/circuitbreaker.go" data-line="[1-9][0-9]*"`, body)
	assert.Contains(t, body, "where New begins")
	_, page := ts.get(t, "/exercise/circuitbreaker")
	assert.Contains(t, page, `<span class="line hl">`, "the highlighted file marks the line")

	// A compile error marks its line.
	ts.write(t, "circuitbreaker/circuitbreaker.go", "package circuitbreaker\n\nfunc New(threshold, wait int) *CircuitBreaker {\n\treturn nil +\n}\n")
	_, body = ts.post(t, "/exercise/circuitbreaker/check", nil)
	assert.Regexp(t, `data-file="circuitbreaker/circuitbreaker.go" data-line="[45]"`, body)

	// A misspelt name that the API check misses marks the misspelling.
	nwe := strings.Replace(breakerSolution(t), "func New(", "func Nwe(", 1)
	ts.write(t, "circuitbreaker/circuitbreaker.go", nwe)
	_, body = ts.post(t, "/exercise/circuitbreaker/check", nil)
	line := 1 + strings.Count(nwe[:strings.Index(nwe, "func Nwe(")], "\n")
	assert.Contains(t, body, fmt.Sprintf(`data-file="circuitbreaker/circuitbreaker.go" data-line="%d"`, line))
	assert.Contains(t, body, fmt.Sprintf("you wrote Nwe in circuitbreaker/circuitbreaker.go:%d; rename it to New", line))

	// A pass links the next exercise: the first of the course not passed
	// yet, which the overview names too (session.Standing.Next).
	ts.write(t, "circuitbreaker/circuitbreaker.go", breakerSolution(t))
	_, body = ts.post(t, "/exercise/circuitbreaker/check", nil)
	assert.Contains(t, body, `data-status="pass"`)
	assert.Contains(t, body, `<a href="/exercise/backoff" id="next-link">Next exercise: `)
	_, overview := ts.get(t, "/")
	assert.Contains(t, overview, `<a href="/exercise/backoff" id="continue-link">`)
}

func breakerSolution(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "exercises", "circuitbreaker", "solution", "circuitbreaker.go"))
	require.NoError(t, err)
	return string(data)
}

func TestAssets(t *testing.T) {
	ts := newTestServer(t)
	_, page := ts.get(t, "/exercise/circuitbreaker")
	name := regexp.MustCompile(`/assets/editor\.[0-9a-f]{12}\.js`).FindString(page)
	require.NotEmpty(t, name)

	get := func(path string, header map[string]string) *http.Response {
		req, err := http.NewRequest("GET", ts.url+path, nil)
		require.NoError(t, err)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		req.AddCookie(ts.cookie)
		// A transport of its own, which does not ask for gzip by itself.
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	// Compressed, and kept for good under the hashed name.
	resp := get(name, map[string]string{"Accept-Encoding": "gzip, deflate, br"})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
	assert.Contains(t, resp.Header.Get("Cache-Control"), "immutable")
	assert.Contains(t, resp.Header.Get("Content-Type"), "javascript")
	zipped, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Less(t, len(zipped), 200<<10, "the editor travels compressed")
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	require.NoError(t, err)
	plain, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Greater(t, len(plain), 2*len(zipped))

	// Decompressed for a client that does not accept gzip.
	resp = get(name, nil)
	assert.Empty(t, resp.Header.Get("Content-Encoding"))
	same, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, plain, same)
	resp = get(name, map[string]string{"Accept-Encoding": "gzip;q=0"})
	assert.Empty(t, resp.Header.Get("Content-Encoding"))

	// Revalidated under the plain name; unchanged means 304.
	resp = get("/assets/app.js", nil)
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)
	resp = get("/assets/app.js", map[string]string{"If-None-Match": etag})
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)

	// The favicon, and pages compressed too.
	resp = get("/favicon.ico", nil)
	assert.Equal(t, "image/svg+xml", resp.Header.Get("Content-Type"))
	resp = get("/", map[string]string{"Accept-Encoding": "gzip"})
	assert.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
	assert.Contains(t, page, `rel="icon"`)
	// A fragment the page's script fetches after a save is sent as it is:
	// on the same machine, compressing costs more than it saves.
	code, _ := ts.post(t, "/exercise/circuitbreaker/check", nil)
	require.Equal(t, http.StatusOK, code)
	resp = get("/exercise/circuitbreaker/result", map[string]string{"Accept-Encoding": "gzip", "X-Kurs-Fragment": "1"})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("Content-Encoding"))
	frag, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Contains(t, string(frag), `id="verdict"`)
	assert.Greater(t, len(frag), minCompress, "a page this large would be compressed")
}

func TestChangedLines(t *testing.T) {
	a := "package p\n\nfunc A() int {\n\treturn 1\n}\n"
	b := "package p\n\n// A returns two.\nfunc A() int {\n    return 2\n}\n"
	inA, inB := changedLines(a, b)
	assert.Equal(t, [][2]int{{4, 4}}, inA)
	assert.Equal(t, [][2]int{{3, 3}, {5, 5}}, inB)
	inA, inB = changedLines(a, a)
	assert.Empty(t, inA)
	assert.Empty(t, inB)
}

func TestAcceptsGzip(t *testing.T) {
	for in, want := range map[string]bool{"": false, "gzip": true, "br, gzip;q=0.5": true, "gzip;q=0": false, "*": true, "identity": false, "GZIP": true} {
		r, _ := http.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", in)
		assert.Equal(t, want, acceptsGzip(r), "%q", in)
	}
}

// A check's duration reads as the reader writes numbers, and a line
// never ends inside it.
func TestDuration(t *testing.T) {
	en, de := i18n.New("en"), i18n.New("de")
	assert.Equal(t, "1\u00a0s", duration(en, 1020*time.Millisecond))
	assert.Equal(t, "0,4\u00a0s", duration(de, 380*time.Millisecond))
	assert.Equal(t, "1\u00a0min\u00a03\u00a0s", duration(de, 63*time.Second))
}

// An exercise passed before says so while its first check since the start
// is pending, not "not checked yet" beside "checking".
func TestPassedBeforeNotChecked(t *testing.T) {
	ts := newTestServer(t)
	p := ts.progress(t)
	p.Of("tokenbucket").Passed = true
	require.NoError(t, ts.ws.SaveProgress(p))
	_, body := ts.get(t, "/exercise/tokenbucket?lang=de")
	require.Contains(t, body, `id="not-checked"`, "no check since the start")
	assert.Contains(t, body, "Bei einer früheren Prüfung bestanden.")
	assert.Contains(t, body, "noch nicht wieder geprüft")
	_, body = ts.get(t, "/exercise/circuitbreaker?lang=de")
	require.Contains(t, body, `id="not-checked"`)
	assert.NotContains(t, body, "früheren Prüfung bestanden")
	assert.Contains(t, body, "noch nicht geprüft")
}

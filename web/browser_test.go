package web_test

// TestBrowser drives `kurs serve` with a real, headless Chromium, as a
// learner meets it: overview, language switch, lesson with its table and
// diagram, saving wrong and right code in an editor (here: writing the
// file) and watching the results change without a reload, the quiz, hints,
// a restart of the server, and requests the server must refuse.
//
// It needs Debian's chromium (`apt-get install chromium`). Without it the
// test skips, except in CI (the CI variable set), where it fails.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/atomicfile"
	"github.com/kurs-course/kurs/internal/browsertest"
	"github.com/kurs-course/kurs/internal/cli"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/workspace"
)

// newWorkspace creates a workspace with the embedded course.
func newWorkspace(t *testing.T, lang string) string {
	t.Helper()
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "ws")
	_, _, err = workspace.Init(dir, c, workspace.Config{Course: "embedded", Lang: lang}, lang)
	require.NoError(t, err)
	return dir
}

// saveElsewhere saves a learner's file as an editor outside the page
// does while the page is open: through a temporary file and a rename. An
// in-place write is no single event: on a busy machine the server may
// check the file emptied before it is written, and rightly, which gives a
// test that counts checks, or takes the first verdict, one more than it
// expects.
func saveElsewhere(t *testing.T, name string, data []byte) {
	t.Helper()
	require.NoError(t, atomicfile.WriteFile(name, data, 0o644))
}

// serving is a running `kurs serve`.
type serving struct {
	url   string // where it listens
	login string // the address it printed, with its key
	stop  func() (code int, out string)
}

var addrLine = regexp.MustCompile(`(http://(127\.0\.0\.1:\d+)/\?key=[0-9a-f]+) `)

// serve runs `kurs serve --addr addr` in the workspace dir, as the command
// line does, and returns once it has printed its address.
func serve(t *testing.T, dir, addr string, args ...string) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		io := cli.IO{Out: pw, Err: &stderr, Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return dir, nil }}
		done <- cli.Main(ctx, append([]string{"serve", "--addr", addr, "--no-browser"}, args...), io)
		pw.Close()
	}()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var out strings.Builder
	s := &serving{}
	select {
	case l := <-lines:
		out.WriteString(l + "\n")
		m := addrLine.FindStringSubmatch(l)
		if m == nil {
			cancel()
			t.Fatalf("kurs serve printed %q, not its address; stderr: %s", l, stderr.String())
		}
		s.url, s.login = "http://"+m[2], m[1]
	case code := <-done:
		cancel()
		t.Fatalf("kurs serve exited with %d before printing its address; stderr: %s", code, stderr.String())
	case <-time.After(browsertest.Patience(t, 30*time.Second)):
		cancel()
		t.Fatal("kurs serve printed no address in time")
	}
	stopped := false
	var code int
	s.stop = func() (int, string) {
		if !stopped {
			stopped = true
			cancel()
			code = <-done
			for l := range lines {
				out.WriteString(l + "\n")
			}
		}
		return code, out.String()
	}
	t.Cleanup(func() { s.stop() })
	return s
}

// A breaker whose wait ends one tick late (> instead of >=): it departs from
// the reference at the probe in the seed's trace.
const breakerLate = `package circuitbreaker

type CircuitBreaker struct {
	threshold, wait, failures, openedAt int
	state                               string
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: "closed"}
}

func (b *CircuitBreaker) State() string { return b.state }

func (b *CircuitBreaker) Allow(now int) bool {
	if b.state == "closed" {
		return true
	}
	if b.state == "open" && now-b.openedAt > b.wait {
		b.state = "half_open"
		return true
	}
	return false
}

func (b *CircuitBreaker) Success() {
	b.failures = 0
	if b.state == "half_open" {
		b.state = "closed"
	}
}

func (b *CircuitBreaker) Failure(now int) {
	switch b.state {
	case "half_open":
		b.state, b.openedAt = "open", now
	case "closed":
		b.failures++
		if b.failures >= b.threshold {
			b.state, b.openedAt = "open", now
		}
	}
}
`

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	// The browser tests wait on the page most of their time: they run
	// beside each other (one Chromium, server and workspace each).
	t.Parallel()
	browsertest.Path(t)
	dir := newWorkspace(t, "en")
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	total := len(c.Exercises)
	srv := serve(t, dir, "127.0.0.1:0")

	browser := browsertest.Start(t, 1200, 900)
	browsertest.Login(t, browser, srv.login)
	b := tab{t, browser}
	step, eval, waitFor := b.do, b.eval, b.waitFor
	// text reads an element's text in the page itself. chromedp.Text
	// looks the node up by its id first; a navigation that replaces the
	// document between the lookup and the read (a click on a link, under
	// load) made it fail with "No node with given id found".
	text := func(sel string) string {
		t.Helper()
		q := fmt.Sprintf("document.querySelector(%q)", sel)
		waitFor(sel, q+" !== null")
		return eval(sel, q+".innerText")
	}
	// noReload marks the page; the mark survives only if the page is not
	// reloaded.
	noReload := func() { eval("mark the page", `window.kursMark = "still here"; window.kursMark`) }
	notReloaded := func(what string) {
		t.Helper()
		assert.Equal(t, "still here", eval("read the mark", `String(window.kursMark)`), "%s: the page was reloaded", what)
	}

	// The overview, in the workspace's language.
	step("open the overview", chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.CSS("#progress")))
	assert.Equal(t, "Your course", text("h1"))
	assert.Contains(t, text("#progress"), fmt.Sprintf("0 of %d exercises passed", total))

	// The language switch, and the choice is remembered.
	// A click that navigates is followed by a wait in the page: a wait
	// for a node would look it up by its id, which the new document
	// does not know. The wait includes the document's whole parse
	// (readyState): the first heading exists while a busy machine's
	// Chromium may still be parsing the tables below it.
	step("switch to German", chromedp.Click(chromedp.CSS("#lang-switch")))
	waitFor("the German overview", `document.readyState !== "loading" && document.querySelector("h1")?.textContent === "Dein Kurs" && document.getElementById("progress") !== null`)
	assert.Contains(t, text("#progress"), fmt.Sprintf("0 von %d Übungen bestanden", total))
	step("open the overview again", chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.CSS("#progress")))
	assert.Equal(t, "Dein Kurs", text("h1"), "the language is remembered")

	// The lesson: a GFM table, highlighted Go, and the state diagram,
	// drawn before the page was sent: no diagram library in the page.
	step("open the lesson", chromedp.Click(chromedp.CSS(`a[href="/lesson/resilienz-2/"]`)))
	waitFor("the lesson", `document.readyState !== "loading" && document.querySelector("article.lesson h1") !== null`)
	assert.Contains(t, text("article.lesson h1"), "Resilienz Teil 2")
	assert.Equal(t, "true", eval("tables", `String(document.querySelectorAll("article.lesson table tbody tr").length > 10)`))
	assert.Equal(t, "true", eval("highlighted Go", `String(document.querySelectorAll("article.lesson pre .kd, article.lesson pre .nx, article.lesson pre .k").length > 0)`))
	assert.Equal(t, "false", eval("no diagram library", `String(window.mermaid !== undefined || document.querySelector("script[src*=mermaid]") !== null)`))
	assert.Contains(t, eval("diagram text", `document.querySelector("figure.diagram svg").textContent`), "half_open")
	assert.Equal(t, "true", eval("the diagram is drawn with a size", `String(document.querySelector("figure.diagram svg").getBoundingClientRect().height > 100)`))

	// The switch keeps the reader's place: from the section on the token
	// bucket in German to the same section in English.
	step("scroll to step 5", chromedp.Evaluate[chromedp.Void](`document.getElementById("s5").scrollIntoView()`))
	assert.Contains(t, text("#s5"), "Schritt 5")
	step("switch to English", chromedp.Click(chromedp.CSS("#lang-switch")))
	waitFor("the English lesson", `document.readyState !== "loading" && document.documentElement.lang === "en" && document.getElementById("s5") !== null`)
	assert.Equal(t, "#s5", eval("the place", `location.hash`))
	assert.Equal(t, "/lesson/resilience-2/", eval("the English id", `location.pathname`))
	assert.Contains(t, text("#s5"), "Step 5")
	assert.Equal(t, "true", eval("s5 in view", `String(Math.abs(document.getElementById("s5").getBoundingClientRect().top) < 100)`))

	// The exercise: task, file, and a first check without pressing
	// anything.
	step("open the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker"), chromedp.WaitVisible(chromedp.CSS("#result")))
	file := filepath.Join(dir, "circuitbreaker", "circuitbreaker.go")
	assert.Contains(t, text(".code code.path"), file, "the page shows the file's path")
	assert.Contains(t, text("section.task"), "threshold")
	noReload()
	waitFor("the first result", `document.querySelector("#verdict")?.dataset.status === "fail"`)

	// Saving wrong code: the trace as a table, expected and actual side by
	// side, and the states as a drawing.
	saveElsewhere(t, file, []byte(breakerLate))
	waitFor("the result of the wrong code", `document.querySelector("#trace tr.failing") !== null &&
		document.querySelector("#trace tr.failing").textContent.includes("Allow(9)")`)
	notReloaded("after saving wrong code")
	row := text("#trace tr.failing")
	assert.Contains(t, row, "half_open", "expected state")
	assert.Contains(t, row, "open", "actual state")
	assert.Equal(t, "2", eval("bad cells", `String(document.querySelectorAll("#trace tr.failing td.bad").length)`))
	assert.Equal(t, "true", eval("drawing", `String(document.querySelector("#drawing svg path.learner") !== null && document.querySelector("#drawing svg path.want") !== null)`))

	// kurs check explains the same result alike: the same headline, the
	// same step and call, the same values expected and got.
	var check bytes.Buffer
	cli.Main(context.Background(), []string{"check", "circuitbreaker", "--workspace", dir},
		cli.IO{Out: &check, Err: io.Discard, Getwd: func() (string, error) { return dir, nil }, Getenv: func(k string) string {
			if strings.HasPrefix(k, "KURS_") || k == "LANG" || strings.HasPrefix(k, "LC_") {
				return ""
			}
			return os.Getenv(k)
		}})
	assert.Contains(t, check.String(), "\n    "+text("p.headline")+"\n", "the headline")
	failing := fmt.Sprintf(`✗ +%s  %s `, regexp.QuoteMeta(text("#trace tr.failing td.n")), regexp.QuoteMeta(text("#trace tr.failing td.call")))
	assert.Regexp(t, failing, check.String(), "the step and its call")
	sides := strings.Split(eval("values", `(() => {
		const heads = [...document.querySelectorAll("#trace thead tr:nth-child(2) th.want")].map((th) => th.querySelector("code") ? th.textContent : "");
		const side = (cls) => [...document.querySelectorAll("#trace tr.failing td." + cls)]
			.map((td, i) => td.textContent === "" ? "" : (heads[i] ? heads[i] + " = " : "") + td.textContent).filter(Boolean).join(", ");
		return side("want") + "\n" + side("got");
	})()`), "\n")
	require.Len(t, sides, 2)
	assert.Contains(t, check.String(), "expected: "+sides[0]+"\n", "the expected values")
	assert.Contains(t, check.String(), "got:      "+sides[1]+"\n", "the values got")

	// Saving right code.
	ref, err := fs.ReadFile(c.FS(), "exercises/circuitbreaker/solution/circuitbreaker.go")
	require.NoError(t, err)
	saveElsewhere(t, file, ref)
	waitFor("the result of the right code", `document.querySelector("#verdict")?.dataset.status === "pass"`)
	notReloaded("after saving right code")
	assert.Contains(t, text("#verdict"), "all 14 tests pass")
	step("the solution link", chromedp.WaitVisible(chromedp.CSS("#solution-link")))

	// Hints, one at a time, counted as `kurs hint` counts them.
	step("first hint", chromedp.Click(chromedp.CSS("#hint-button")))
	waitFor("hint 1", `document.querySelectorAll("#hints ol li").length === 1`)
	step("second hint", chromedp.Click(chromedp.CSS("#hint-button")))
	waitFor("hint 2", `document.querySelectorAll("#hints ol li").length === 2`)
	notReloaded("after the hints")
	var out bytes.Buffer
	code := cli.Main(context.Background(), []string{"hint", "circuitbreaker", "--workspace", dir},
		cli.IO{Out: &out, Err: io.Discard, Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return dir, nil }})
	require.Equal(t, 0, code)
	assert.Contains(t, out.String(), "Hint 3 of 5", "kurs hint goes on where the page stopped")
	step("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#hints")))
	assert.Equal(t, "3", eval("hints after kurs hint", `String(document.querySelectorAll("#hints ol li").length)`))

	// The quiz, answered in the page: first a wrong letter, then right.
	quiz := filepath.Join(dir, "bulkheadquiz", "bulkheadquiz.go")
	before, err := os.ReadFile(quiz)
	require.NoError(t, err)
	step("open the quiz", chromedp.Navigate(srv.url+"/exercise/bulkheadquiz"), chromedp.WaitVisible(chromedp.CSS("#quiz-form")))
	noReload()
	step("answer A, A", chromedp.Click(chromedp.CSS(`input[name="case1"][value="A"]`)),
		chromedp.Click(chromedp.CSS(`input[name="case2"][value="A"]`)), chromedp.Click(chromedp.CSS("#quiz-submit")))
	waitFor("the graded answer", `document.querySelector("#verdict")?.dataset.status === "fail" && document.querySelector(".notice") !== null`)
	assert.Contains(t, text("#result"), "Case 1: A is not the best choice")
	assert.Contains(t, text("#result"), "Case 2: right")
	step("answer D", chromedp.Click(chromedp.CSS(`input[name="case1"][value="D"]`)), chromedp.Click(chromedp.CSS("#quiz-submit")))
	waitFor("the passed quiz", `document.querySelector("#verdict")?.dataset.status === "pass"`)
	notReloaded("after the quiz")
	after, err := os.ReadFile(quiz)
	require.NoError(t, err)
	assert.Contains(t, string(after), `var Answer = [2]string{"D", "A"}`)
	assert.Contains(t, string(after), "// Answer holds", "the rest of the learner's file is kept")
	backups, err := filepath.Glob(filepath.Join(dir, ".kurs", "backup", "*", "bulkheadquiz", "bulkheadquiz.go"))
	require.NoError(t, err)
	require.Len(t, backups, 2, "one backup per saved answer")
	first, err := os.ReadFile(backups[0])
	require.NoError(t, err)
	assert.Equal(t, string(before), string(first), "the first backup holds the file as it was")

	// Requests the server refuses: a state change without the token, from
	// the page itself; a foreign Host and a foreign Origin.
	status := eval("POST without token", `fetch("/exercise/circuitbreaker/check", {method: "POST"}).then(r => String(r.status))`)
	assert.Equal(t, "403", status)
	req, err := http.NewRequest("GET", srv.url+"/", nil)
	require.NoError(t, err)
	req.Host = "rebound.example:" + strings.Split(srv.url, ":")[2]
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusMisdirectedRequest, resp.StatusCode)
	assert.NotContains(t, string(body), tokenOf(t, browser), "a refused request must not see the token")
	form := url.Values{"token": {tokenOf(t, browser)}}
	req, err = http.NewRequest("POST", srv.url+"/exercise/circuitbreaker/hint", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://evil.example")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "another site's form, even with the token")

	// A restart: the page reconnects by itself, takes the new token, and
	// follows saves again.
	step("open the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker"), chromedp.WaitVisible(chromedp.CSS("#result")))
	waitFor("live", `document.querySelector("#live.on") !== null`)
	noReload()
	oldToken := tokenOf(t, browser)
	addr := strings.TrimPrefix(srv.url, "http://")
	code, printed := srv.stop()
	assert.Equal(t, 0, code)
	assert.Contains(t, printed, "kurs serve: stopped.")
	waitFor("the page notices", `document.querySelector("#live.off") !== null`)
	again := serve(t, dir, addr)
	assert.Equal(t, srv.login, again.login, "a restarted server keeps its address and knows the browser")
	waitFor("the page reconnects", `document.querySelector("#live.on") !== null`)
	waitFor("the new token", fmt.Sprintf(`document.querySelector('meta[name="kurs-token"]').content !== %q`, oldToken))
	saveElsewhere(t, file, []byte(breakerLate))
	waitFor("the result after the restart", `document.querySelector("#verdict")?.dataset.status === "fail"`)
	step("check with the new token", chromedp.Click(chromedp.CSS("#check-button")))
	waitFor("the checked result", `document.querySelector("#verdict")?.dataset.status === "fail" && document.querySelector("#result .problem") === null`)
	notReloaded("after the restart")
}

// tokenOf returns the token in the browser's current page.
func tokenOf(t *testing.T, browser context.Context) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(browser, browsertest.Patience(t, 10*time.Second))
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('meta[name="kurs-token"]').content`))
	require.NoError(t, err)
	require.NotEmpty(t, v)
	return v
}

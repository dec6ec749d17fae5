package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/browsertest"
)

// tryTrace empties the trace field, types trace into it as a learner
// does, and presses the button; the previous result is gone first, so
// that waiting for a result waits for the new one.
func (b tab) tryTrace(trace string) {
	b.t.Helper()
	b.eval("empty the field", `document.getElementById("try-trace").value = ""; document.getElementById("try-result").textContent = ""`)
	b.do("type "+trace, chromedp.SendKeys(chromedp.CSS("#try-trace"), trace), chromedp.Click(chromedp.CSS("#try-button")))
}

// TestTryInTheBrowser types a trace into the exercise page's "Try a
// trace" panel, in a real, headless Chromium: the step where a wrong
// breaker departs from the reference is marked in words, the reference's
// own code answers alike at every step, a mistake in the trace is named
// with its column, and the panel fits a phone's width.
func TestTryInTheBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	// The browser tests wait on the page most of their time: they run
	// beside each other (one Chromium, server and workspace each).
	t.Parallel()
	b := tab{t, browsertest.Start(t, 1280, 800)}
	ref, err := os.ReadFile(filepath.Join("..", "exercises", "circuitbreaker", "solution", "circuitbreaker.go"))
	require.NoError(t, err)
	dir := newWorkspace(t, "en")
	file := filepath.Join(dir, "circuitbreaker", "circuitbreaker.go")
	require.NoError(t, os.WriteFile(file, []byte(breakerLate), 0o644))
	srv := serve(t, dir, "127.0.0.1:0")
	browsertest.Login(t, b.ctx, srv.login)

	// The wait ends one tick late: at Allow(5) the reference probes, the
	// learner's breaker stays open.
	const trace = "New(1, 5) Failure(0) Allow(5) Success()"
	b.do("open the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker"), chromedp.WaitVisible(chromedp.CSS("#try-form")))
	assert.Contains(t, b.eval("example", `document.getElementById("try-trace").value`), "New(3, 5) Failure(0)")
	b.tryTrace(trace)
	b.waitFor("the answers", `document.querySelector("#try-result table") !== null`)
	assert.Equal(t, "2", b.eval("the differing step", `document.querySelector("#try-result tr.differs td.n").textContent`))
	assert.Contains(t, b.eval("marked in words", `document.querySelector("#try-result tr.differs td.mark").textContent`), "differs")
	assert.Equal(t, "5", b.eval("columns headed", `String(document.querySelectorAll("#try-result thead th[scope=col]").length)`))
	assert.Contains(t, b.eval("summary", `document.querySelector(".try-summary").textContent`), "first differ at step 2")
	assert.Equal(t, "true", b.eval("focus on the result", `String(document.activeElement.classList.contains("try-summary"))`))
	assert.Contains(t, b.eval("announced", `document.getElementById("try-status").textContent`), "first differ at step 2")
	assert.Equal(t, "polite", b.eval("a live region", `document.getElementById("try-status").getAttribute("aria-live")`))

	// A mistake in the trace: its column, and the field marked invalid.
	b.tryTrace("New(1, 5) Fail(0)")
	b.waitFor("the mistake", `document.querySelector("#try-result .try-error") !== null`)
	assert.Contains(t, b.eval("column", `document.querySelector("#try-result .try-error").textContent`), "column 11")
	assert.Equal(t, "true", b.eval("invalid", `document.getElementById("try-trace").getAttribute("aria-invalid")`))

	// The reference's own code answers alike at every step.
	saveElsewhere(t, file, ref)
	b.tryTrace(trace)
	b.waitFor("the answers", `document.querySelector("#try-result table") !== null`)
	assert.Equal(t, "4 0", b.eval("all steps same", `document.querySelectorAll("#try-result tbody tr").length + " " + document.querySelectorAll("#try-result tr.differs").length`))
	assert.Equal(t, "false", b.eval("valid", `document.getElementById("try-trace").getAttribute("aria-invalid")`))

	// At 390 px the panel and its table fit without sideways scrolling.
	saveElsewhere(t, file, []byte(breakerLate))
	b.do("phone width", chromedp.EmulateViewport(390, 844), chromedp.Navigate(srv.url+"/exercise/circuitbreaker?lang=de"), chromedp.WaitVisible(chromedp.CSS("#try-form")))
	b.tryTrace("New(1, 5) Failure(0) Allow(5) Allow(6) Success() Failure(7) Allow(12) Allow(13)")
	b.waitFor("the answers", `document.querySelector("#try-result table") !== null`)
	assert.Contains(t, b.eval("in German", `document.querySelector("#try-result tr.differs td.mark").textContent`), "weicht ab")
	got := b.eval("widths", `document.documentElement.scrollWidth + " " + window.innerWidth`)
	var scroll, inner int
	_, err = fmt.Sscan(got, &scroll, &inner)
	require.NoError(t, err)
	assert.LessOrEqual(t, scroll, inner, "the tried trace scrolls sideways at 390 px")
}

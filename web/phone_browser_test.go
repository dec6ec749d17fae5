package web_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/browsertest"
)

// TestFailingBackoffOnAPhone opens a long failing trace at a phone's width
// (390 × 844 px), in a real, headless Chromium: the backoff whose delay
// overflows at 1<<63 departs at step 64. The page opens at the top with
// the task, the trace shows the steps around the departure with all 64
// a click away, the Try panel and the hints follow within two screens of
// the result, and the drawing shows its marked step without scrolling
// sideways first.
func TestFailingBackoffOnAPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	t.Parallel()
	overflows, err := os.ReadFile(filepath.Join("..", "exercises", "backoff", "misconceptions", "doubling-overflows", "backoff.go"))
	require.NoError(t, err)
	for _, lang := range []string{"en", "de"} {
		t.Run(lang, func(t *testing.T) {
			b := tab{t, browsertest.Start(t, 390, 844)}
			dir := newWorkspace(t, lang)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "backoff", "backoff.go"), overflows, 0o644))
			srv := serve(t, dir, "127.0.0.1:0")
			browsertest.Login(t, b.ctx, srv.login)
			browsertest.Login(t, b.ctx, srv.login)
			backoffOnAPhone(t, b, srv, lang)
		})
	}
}

// viewShot saves what the screen shows into artifacts' folder, if any,
// as screenshot saves the whole page.
func viewShot(t *testing.T, b tab, name string) {
	t.Helper()
	dir, ok := artifacts(t)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, browsertest.Patience(t, 30*time.Second))
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err, "screenshot %s", name)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	t.Logf("screenshot: %s", filepath.Join(dir, name))
}

func backoffOnAPhone(t *testing.T, b tab, srv *serving, lang string) {

	b.do("open the backoff", chromedp.EmulateViewport(390, 844), chromedp.Navigate(srv.url+"/exercise/backoff"))
	b.waitFor("the failing trace", `document.querySelector("#trace tr.failing") !== null`)
	// The editor marks the line the result points at once it has loaded;
	// that was when the page used to jump to the editor. Two frames after
	// the mark, any scrolling it caused has happened.
	b.waitFor("the marked line in the editor", `document.querySelector(".cm-kurs-marked") !== null`)
	b.eval("two frames", `new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(""))))`)
	viewShot(t, b, "390px-backoff-"+lang+"-opened.png")

	// The page opens at the top: the title and the task's first line in
	// view below the sticky bar.
	assert.Equal(t, "0", b.eval("scrolled", `String(Math.round(window.scrollY))`), "the page scrolled away from the top on opening")
	assert.Equal(t, "true", b.eval("title below the bar", `String(document.getElementById("s1").getBoundingClientRect().top >= document.querySelector("header.top").getBoundingClientRect().bottom)`))
	assert.Equal(t, "true", b.eval("task in view", `String(document.querySelector("section.task p").getBoundingClientRect().bottom <= window.innerHeight)`))

	// The trace shows the steps around the departure; all 64 are behind
	// "show all", which works without the script (a details element).
	shown := b.eval("steps shown", `String(document.querySelectorAll("#trace tbody tr").length)`)
	n, err := strconv.Atoi(shown)
	require.NoError(t, err)
	assert.Less(t, n, 16, "the trace shows %d rows at first", n)
	assert.Contains(t, b.eval("the departure shown", `document.querySelector("#trace tr.failing td.n").textContent`), "64")
	assert.Equal(t, "false", b.eval("all steps closed", `String(document.querySelector("details.all-steps").open)`))
	assert.Contains(t, b.eval("show all", `document.querySelector("details.all-steps summary").textContent`), "64")
	assert.Equal(t, "0", b.eval("no drawing before show all", `String(document.querySelectorAll("#result > #drawing").length)`))

	// The Try panel and the hints within two screens of the result: the
	// hints just before it, the Try panel after it.
	result := b.eval("the result's top", `String(Math.round(document.getElementById("s5").getBoundingClientRect().top + scrollY))`)
	try := b.eval("the Try panel's top", `String(Math.round(document.getElementById("s8").getBoundingClientRect().top + scrollY))`)
	hints := b.eval("the hints' top", `String(Math.round(document.getElementById("s6").getBoundingClientRect().top + scrollY))`)
	b.do("to the result", chromedp.Evaluate[chromedp.Void](`document.getElementById("s5").scrollIntoView()`))
	viewShot(t, b, "390px-backoff-"+lang+"-result.png")
	b.do("to the Try panel", chromedp.Evaluate[chromedp.Void](`document.getElementById("s8").scrollIntoView()`))
	viewShot(t, b, "390px-backoff-"+lang+"-try.png")
	t.Logf("result at %s px, Try panel at %s px, hints at %s px, page %s px tall", result, try, hints,
		b.eval("height", `String(document.documentElement.scrollHeight)`))
	t.Log(b.eval("layout", `[...document.querySelectorAll("#result > *, section.try, section.hints-section, section.reset")].map((e) => e.tagName + "." + e.className + "#" + e.id + " " + Math.round(e.getBoundingClientRect().top + scrollY) + "+" + Math.round(e.getBoundingClientRect().height)).join("\n")`))
	r, _ := strconv.Atoi(result)
	tr, _ := strconv.Atoi(try)
	h, _ := strconv.Atoi(hints)
	assert.Less(t, tr-r, 2*844, "the Try panel is more than two screens below the result")
	assert.Less(t, max(h-r, r-h), 2*844, "the hints are more than two screens from the result")

	// The overview's rows line up, with a mark or without: the backoff
	// fails (✗), the others are not begun (·).
	b.do("the overview", chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.CSS("li.exercise.failing")))
	assert.Equal(t, "1", b.eval("titles aligned", `String(new Set([...document.querySelectorAll("li.exercise a")].map((a) => Math.round(a.getBoundingClientRect().left))).size)`))
	b.do("back to the backoff", chromedp.Navigate(srv.url+"/exercise/backoff"))
	b.waitFor("the failing trace", `document.querySelector("#trace tr.failing") !== null`)

	// Show all: every step, the departure among them, and the drawing of
	// them all.
	screenshot(t, b, "390px-backoff-"+lang+"-page.png")
	b.do("show all", chromedp.Click(chromedp.CSS("details.all-steps summary")))
	b.waitFor("all steps", `document.querySelector("details.all-steps").open`)
	assert.Equal(t, "64", b.eval("all steps listed", `String(document.querySelectorAll("details.all-steps tbody tr.step, details.all-steps tbody tr.failing").length)`))

	// The drawing shows its marked step: the failing step's band and the
	// note on it lie within the drawing's box and the screen.
	b.do("to the drawing", chromedp.Evaluate[chromedp.Void](`document.getElementById("drawing").scrollIntoView(); scrollBy(0, -60)`))
	viewShot(t, b, "390px-backoff-"+lang+"-drawing.png")
	assert.Equal(t, "", b.eval("the marked step in view", `(() => {
		const box = document.querySelector("#drawing .drawing-scroll").getBoundingClientRect();
		const step = document.querySelector("#drawing .failing-step").getBoundingClientRect();
		const note = document.querySelector("#drawing text.mismatch").getBoundingClientRect();
		if (note.left < box.left || note.right > box.right) return "the note on the step spans " + Math.round(note.left) + "–" + Math.round(note.right) + " px, the box " + Math.round(box.left) + "–" + Math.round(box.right) + " px";
		return step.left >= box.left && step.right <= box.right && step.right <= window.innerWidth ? "" :
			"the step spans " + Math.round(step.left) + "–" + Math.round(step.right) + " px, the box " + Math.round(box.left) + "–" + Math.round(box.right) + " px";
	})()`))

}

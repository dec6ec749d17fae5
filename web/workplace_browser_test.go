package web_test

// TestWorkplace drives the exercise page as a place to work, in a real,
// headless Chromium: the check within reach, code edited and saved in the
// page, saves from another editor while the page is clean and while it
// holds edits, focus after Check and Hint, the quiz with its options in
// the labels, "next exercise" after a pass, and every kind of page at a
// phone's width without sideways scrolling.

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/browsertest"
	"github.com/kurs-course/kurs/internal/course"
)

// tab is a browser tab with the helpers the tests use; every action has a
// time limit, so a missing element fails the test instead of hanging it.
type tab struct {
	t   *testing.T
	ctx context.Context
}

func (b tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browsertest.Patience(b.t, 30*time.Second))
	defer cancel()
	require.NoError(b.t, chromedp.Do(ctx, actions...), what)
}

func (b tab) eval(what, js string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browsertest.Patience(b.t, 30*time.Second))
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	require.NoError(b.t, err, what)
	return v
}

// waitFor waits until a JavaScript expression is true, asking again and
// again rather than polling inside the page, so that it survives
// navigations. It waits as long as the machine's load makes the event take
// (browsertest.Patience), not a fixed time.
func (b tab) waitFor(what, js string) {
	b.t.Helper()
	browsertest.Until(b.t, what+" ("+js+")", 30*time.Second, func() (bool, error) {
		ctx, cancel := context.WithTimeout(b.ctx, browsertest.Patience(b.t, 5*time.Second))
		defer cancel()
		return chromedp.Run(ctx, chromedp.Evaluate[bool]("Boolean("+js+")"))
	}, func() string {
		ctx, cancel := context.WithTimeout(b.ctx, browsertest.Patience(b.t, 5*time.Second))
		defer cancel()
		page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText`))
		return "the page:\n" + page
	})
}

// typeInEditor replaces the text of the page's editor as a learner does:
// select all, then insert the new text.
func (b tab) typeInEditor(text string) {
	b.t.Helper()
	b.do("focus the editor", chromedp.Focus(chromedp.CSS(".cm-content")),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	ctx, cancel := context.WithTimeout(b.ctx, browsertest.Patience(b.t, 30*time.Second))
	defer cancel()
	_, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: text})
	require.NoError(b.t, err, "type into the editor")
}

// artifacts returns the folder $KURS_ARTIFACTS names, where the browser
// tests save what the pages looked like, for a person to look at: they
// assert nothing, and a whole page's screenshot costs Chromium up to a
// second and a half of processor time, so without the variable (make
// test, CI) they are not taken.
func artifacts(t *testing.T) (string, bool) {
	t.Helper()
	dir := os.Getenv("KURS_ARTIFACTS")
	if dir == "" {
		return "", false
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir, true
}

// screenshot saves the whole page into artifacts' folder, if any.
func screenshot(t *testing.T, b tab, name string) {
	t.Helper()
	dir, ok := artifacts(t)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, browsertest.Patience(t, 30*time.Second))
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err, "screenshot %s", name)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	t.Logf("screenshot: %s", filepath.Join(dir, name))
}

// servedTab starts kurs serve on the workspace dir and a browser tab of
// width×height logged in to it: how the browser tests begin.
// breaker returns the circuit breaker's reference solution, and the same
// with its probe one tick late, which builds and fails the seed's trace.
func breaker(t *testing.T) (right, late string) {
	t.Helper()
	ref, err := fs.ReadFile(kurs.Content(), "exercises/circuitbreaker/solution/circuitbreaker.go")
	require.NoError(t, err)
	right = string(ref)
	late = strings.Replace(right, "now-b.openedAt >= b.wait", "now-b.openedAt > b.wait", 1)
	require.NotEqual(t, right, late, "the solution changed: no late probe to make")
	return right, late
}

func servedTab(t *testing.T, dir string, width, height int) (*serving, tab) {
	t.Helper()
	srv := serve(t, dir, "127.0.0.1:0")
	b := tab{t, browsertest.Start(t, width, height)}
	browsertest.Login(t, b.ctx, srv.login)
	return srv, b
}

// seq is the number of the check the page shows.
const seq = `Number(document.querySelector("#verdict")?.dataset.seq || -1)`

// statusShowsVerdict is true when the status beside the page's buttons is
// idle: neither checking nor "not saved", it repeats the verdict shown.
const statusShowsVerdict = `(() => {
  const s = document.getElementById("status"), v = document.querySelector("#verdict strong");
  return v !== null && s.classList.contains("verdict") && s.textContent === v.textContent;
})()`

func TestWorkplace(t *testing.T) {
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
	srv, b := servedTab(t, dir, 1280, 800)
	file := filepath.Join(dir, "circuitbreaker", "circuitbreaker.go")
	ref, _ := breaker(t)

	// The check within reach: on a wide screen the button is in view
	// without scrolling, beside the task.
	b.do("open the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker"), chromedp.WaitVisible(chromedp.CSS("#result")))
	b.waitFor("the first result", `document.querySelector("#verdict")?.dataset.status === "fail"`)
	assert.Equal(t, "true", b.eval("check in view", `String(document.getElementById("check-button").getBoundingClientRect().bottom <= window.innerHeight)`))
	assert.Equal(t, "true", b.eval("side by side", `String(document.querySelector(".work-pane").getBoundingClientRect().left > document.querySelector(".task-pane").getBoundingClientRect().right - 1)`))

	// The editor, with the line the result points at marked.
	b.waitFor("the editor", `document.querySelector(".cm-editor .cm-content") !== null`)
	b.waitFor("the marked line", `document.querySelector(".cm-kurs-marked") !== null`)
	assert.Contains(t, b.eval("marked line", `document.querySelector(".cm-kurs-marked").textContent`), "func New(")

	// Check keeps the focus on its button, and the result is new.
	before := b.eval("seq", `String(`+seq+`)`)
	b.do("check with the keyboard", chromedp.Focus(chromedp.CSS("#check-button")), chromedp.KeyEvent(kb.Enter))
	b.waitFor("a new result", seq+` > `+before)
	assert.Equal(t, "check-button", b.eval("focus after Check", `document.activeElement.id`))

	// Hints: the focus stays on the button, and the list is a live region.
	b.do("first hint", chromedp.Focus(chromedp.CSS("#hint-button")), chromedp.KeyEvent(kb.Enter))
	b.waitFor("hint 1", `document.querySelectorAll("#hints ol li").length === 1`)
	assert.Equal(t, "hint-button", b.eval("focus after Hint", `document.activeElement.id`))
	assert.Equal(t, "polite", b.eval("live hints", `document.querySelector("#hints ol").getAttribute("aria-live")`))
	assert.Equal(t, "polite", b.eval("live result", `document.getElementById("result").getAttribute("aria-live")`))

	// A save from another editor while the page holds no edits: the page
	// shows the saved file and says so.
	saveElsewhere(t, file, []byte(breakerLate))
	b.waitFor("the outside save in the editor", `document.querySelector(".cm-content").textContent.includes("now-b.openedAt > b.wait")`)
	b.waitFor("the note", `!document.getElementById("editor-note").hidden`)
	assert.Contains(t, b.eval("note", `document.getElementById("editor-note").textContent`), "saved outside the page")
	b.waitFor("its result", `document.querySelector("#trace tr.failing") !== null`)

	// Edit in the page and save with Ctrl+S: the file is written, the old
	// one backed up, and the new result comes in; a pass offers the next
	// exercise.
	before = b.eval("seq", `String(`+seq+`)`)
	b.typeInEditor(ref)
	b.waitFor("unsaved", `document.getElementById("status").textContent !== ""`)
	b.do("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("the result of the saved code", seq+` > `+before+` && document.querySelector("#verdict").dataset.status === "pass"`)
	saved, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, ref, string(saved), "the page saved what was typed")
	backups, err := filepath.Glob(filepath.Join(dir, ".kurs", "backup", "*", "circuitbreaker", "circuitbreaker.go"))
	require.NoError(t, err)
	require.NotEmpty(t, backups)
	// The first exercise of the course not passed yet (session.Standing.Next).
	assert.Equal(t, "/exercise/backoff", b.eval("next", `new URL(document.getElementById("next-link").href).pathname`))
	assert.Equal(t, "0", b.eval("nothing marked after a pass", `String(document.querySelectorAll(".cm-kurs-marked").length)`))

	// An outside save while the page holds edits: the page asks, and
	// keeping the page's edits saves them.
	b.typeInEditor(ref + "\n// mine\n")
	saveElsewhere(t, file, []byte(breakerLate))
	b.waitFor("the question", `document.getElementById("editor-note").textContent.includes("not saved")`)
	assert.Contains(t, b.eval("editor kept", `document.querySelector(".cm-content").textContent`), "// mine")
	b.do("keep mine", chromedp.Click(chromedp.CSS("#editor-note button:last-of-type")))
	b.waitFor("saved mine", `document.querySelector("#verdict")?.dataset.status === "pass"`)
	saved, err = os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(saved), "// mine")

	// The overview says where to go on: the first exercise not passed.
	b.do("overview", chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.CSS("#progress")))
	assert.Equal(t, "/exercise/"+c.Exercises[0].ID, b.eval("continue", `new URL(document.getElementById("continue-link").href).pathname`))

	// The quiz: the option's text in each label, one button, ✓ or ✗ per
	// case, and no backup for an answer that changed nothing.
	b.do("open the quiz", chromedp.Navigate(srv.url+"/exercise/bulkheadquiz"), chromedp.WaitVisible(chromedp.CSS("#quiz-form")))
	assert.Contains(t, b.eval("label text", `document.querySelector('input[name="case1"][value="D"]').closest("label").textContent`), "separate pools")
	assert.Equal(t, "1", b.eval("one button", `String(document.querySelectorAll("main button[type=submit]:not(#hint-button)").length)`))
	assert.NotContains(t, b.eval("no file wording", `document.querySelector(".work-pane").textContent`), ".go")
	b.do("answer D, B", chromedp.Click(chromedp.CSS(`input[name="case1"][value="D"]`)),
		chromedp.Click(chromedp.CSS(`input[name="case2"][value="B"]`)), chromedp.Click(chromedp.CSS("#quiz-submit")))
	b.waitFor("graded", `document.querySelector("#case1.pass") !== null && document.querySelector("#case2.fail") !== null`)
	assert.Contains(t, b.eval("mark", `document.querySelector("#case1 .case-mark").textContent`), "✓")
	assert.Contains(t, b.eval("mark", `document.querySelector("#case2 .case-mark").textContent`), "✗")
	assert.Equal(t, "quiz-submit", b.eval("focus after the quiz's check", `document.activeElement.id`))
	before = b.eval("seq", `String(`+seq+`)`)
	b.do("check again, unchanged", chromedp.Click(chromedp.CSS("#quiz-submit")))
	b.waitFor("checked again", seq+` > `+before)
	quizBackups, err := filepath.Glob(filepath.Join(dir, ".kurs", "backup", "*", "bulkheadquiz", "bulkheadquiz.go"))
	require.NoError(t, err)
	assert.Len(t, quizBackups, 1, "one backup per change, none for a check that changed nothing")

	// Every kind of page at 390 px: no sideways scrolling. The exercise
	// shows a failing trace (a table) and the solution page both files.
	saveElsewhere(t, file, []byte(breakerLate))
	b.do("phone width", chromedp.EmulateViewport(390, 844))
	for _, p := range []string{"/", "/lesson/resilienz-2/", "/lesson/lastverteilung/", "/exercise/circuitbreaker", "/exercise/bulkheadquiz", "/exercise/circuitbreaker/solution"} {
		b.do("open "+p, chromedp.Navigate(srv.url+p), chromedp.WaitReady(chromedp.CSS("main")))
		if p == "/exercise/circuitbreaker" {
			b.waitFor("the trace", `document.querySelector("#trace tr.failing") !== null && document.querySelector(".cm-editor") !== null`)
		}
		got := b.eval("widths", `document.documentElement.scrollWidth + " " + window.innerWidth`)
		var scroll, inner int
		_, err := fmt.Sscan(got, &scroll, &inner)
		require.NoError(t, err)
		assert.LessOrEqual(t, scroll, inner, "%s scrolls sideways at 390 px", p)
		// Nothing is cut off on the right either: the editor, code,
		// tables and diagrams end within the screen (a long line scrolls
		// inside its own box).
		assert.Equal(t, "", b.eval("boxes past the right edge", `[...document.querySelectorAll(
			"main pre, main table, main .cm-editor, main .code-view, main figure.diagram svg, main section, main .file, main form, main input, main textarea:not([hidden])")]
			.filter((e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > window.innerWidth + 0.5)
			.map((e) => e.tagName.toLowerCase() + "." + e.className + " ends at " + Math.round(e.getBoundingClientRect().right)).join("; ")`), "%s at 390 px", p)
		screenshot(t, b, "390px"+strings.ReplaceAll(strings.TrimSuffix(p, "/"), "/", "_")+".png")
	}
	// On a phone the code follows the task's summary: the editor comes
	// before the hints and the reset, not after the whole task.
	b.do("the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker"), chromedp.WaitReady(chromedp.CSS("main")))
	b.waitFor("the editor", `document.querySelector(".cm-editor") !== null`)
	assert.Equal(t, "true", b.eval("editor after the task", `String(document.querySelector(".cm-editor").getBoundingClientRect().top > document.querySelector("section.task").getBoundingClientRect().bottom - 1)`))
	assert.Equal(t, "true", b.eval("editor before the hints", `String(document.querySelector(".cm-editor").getBoundingClientRect().bottom < document.querySelector("section.hints-section").getBoundingClientRect().top)`))
	// A jump to a heading leaves it below the sticky bar.
	b.do("jump to the result", chromedp.Navigate(srv.url+"/exercise/circuitbreaker#s5"), chromedp.WaitReady(chromedp.CSS("main")))
	b.waitFor("the result", `document.querySelector("#verdict") !== null`)
	b.do("jump", chromedp.Evaluate[chromedp.Void](`document.getElementById("s5").scrollIntoView()`))
	assert.Equal(t, "true", b.eval("heading below the bar", `String(document.getElementById("s5").getBoundingClientRect().top >= document.querySelector("header.top").getBoundingClientRect().bottom)`))
	// The trace stacks expected and actual within each step.
	b.do("the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker"), chromedp.WaitReady(chromedp.CSS("main")))
	b.waitFor("the trace", `document.querySelector("#trace tr.failing") !== null`)
	assert.Contains(t, []string{"block", "grid"}, b.eval("stacked", `getComputedStyle(document.querySelector("#trace tr.failing")).display`))
	assert.True(t, strings.Contains(b.eval("labels", `getComputedStyle(document.querySelector("#trace tr.failing td.got"), "::before").content`), "your"))
}

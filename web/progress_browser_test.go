package web_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/internal/browsertest"
	"github.com/kurs-course/kurs/internal/cli"
)

// kursCmd runs a verb of the command line in the workspace dir, as the
// learner would in a terminal beside the page.
func kursCmd(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := cli.Main(context.Background(), append(args, "--workspace", dir),
		cli.IO{Out: &out, Err: &errs, Getwd: func() (string, error) { return dir, nil }, Getenv: func(k string) string {
			// The learner's own environment, but for kurs's and the
			// locale's, so that the workspace's language speaks.
			if strings.HasPrefix(k, "KURS_") || k == "LANG" || strings.HasPrefix(k, "LC_") {
				return ""
			}
			return os.Getenv(k)
		}})
	return code, out.String() + errs.String()
}

// TestPassInThePageIsRemembered: a pass reached with the page's check
// button is the learner's progress, as one from kurs check: it opens the
// reference solution, and when the code later fails, kurs list says
// "passed before".
func TestPassInThePageIsRemembered(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	// The browser tests wait on the page most of their time: they run
	// beside each other (one Chromium, server and workspace each).
	t.Parallel()
	browsertest.Path(t)
	dir := newWorkspace(t, "en")
	ref, _ := breaker(t)
	srv, b := servedTab(t, dir, 1280, 800)

	code, out := kursCmd(t, dir, "solution", "circuitbreaker")
	assert.NotZero(t, code, "the solution is closed before a pass: %s", out)

	b.do("open the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker"), chromedp.WaitVisible(chromedp.CSS("#result")))
	b.waitFor("the editor", `document.querySelector(".cm-editor .cm-content") !== null`)
	b.typeInEditor(ref)
	b.do("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("saved", statusShowsVerdict)
	before := b.eval("seq", `String(`+seq+`)`)
	b.do("check", chromedp.Click(chromedp.CSS("#check-button")))
	b.waitFor("a pass", seq+` > `+before+` && document.querySelector("#verdict").dataset.status === "pass"`)

	code, out = kursCmd(t, dir, "solution", "circuitbreaker")
	assert.Zero(t, code, out)
	assert.Contains(t, out, "Reference solution", "the pass in the page opens the solution")

	// A save whose result is reused comes back before the watcher notices
	// the page's write; the watcher then finds the files checked and says
	// nothing. The status beside the button must not go back to
	// "checking" after the verdict: a recorder notes every status from
	// then on, until the result of a save in another editor, which the
	// watcher handles after the page's own (or with it, in one go). Only
	// that check may show "checking", if it takes long enough to.
	b.typeInEditor(ref + "\n// another version\n")
	before = b.eval("seq", `String(`+seq+`)`)
	b.do("save another version", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("its result", seq+` > `+before+` && document.querySelector("#verdict").dataset.status === "pass"`)
	before = b.eval("seq", `String(`+seq+`)`)
	b.typeInEditor(ref)
	b.do("save the passing version again", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("its result", seq+` > `+before+` && document.querySelector("#verdict").dataset.status === "pass"`)
	b.waitFor("the status at the verdict", statusShowsVerdict)
	b.eval("record the status", `window.kursStatuses = [];
new MutationObserver(() => kursStatuses.push(document.getElementById("status").className))
  .observe(document.getElementById("status"), { attributes: true, childList: true, characterData: true, subtree: true });
"ok"`)

	// The code breaks in another editor; the page checks it and fails.
	saveElsewhere(t, filepath.Join(dir, "circuitbreaker", "circuitbreaker.go"), []byte(breakerLate))
	b.waitFor("the failing result", `document.querySelector("#verdict")?.dataset.status === "fail"`)
	b.waitFor("the status at the verdict", statusShowsVerdict)
	statuses := b.eval("the statuses", `JSON.stringify(kursStatuses)`)
	assert.LessOrEqual(t, strings.Count(statuses, "checking"), 1, "one check after the page's save, the other editor's: %s", statuses)
	assert.Contains(t, statuses, "verdict fail")

	_, out = kursCmd(t, dir, "list")
	var line string
	for l := range strings.Lines(out) {
		if strings.Contains(l, "circuitbreaker") {
			line = l
		}
	}
	assert.Regexp(t, `✗ circuitbreaker .*passed before, failing now +4/4 points`, line, out)
	code, out = kursCmd(t, dir, "solution", "circuitbreaker")
	assert.Zero(t, code, "a pass is remembered: %s", out)
}

package web_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/browsertest"
	"github.com/kurs-course/kurs/internal/cli"
	"github.com/kurs-course/kurs/internal/course"
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
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	ref, err := fs.ReadFile(c.FS(), "exercises/circuitbreaker/solution/circuitbreaker.go")
	require.NoError(t, err)
	srv := serve(t, dir, "127.0.0.1:0")
	b := tab{t, browsertest.Start(t, 1280, 800)}
	browsertest.Login(t, b.ctx, srv.login)

	code, out := kursCmd(t, dir, "solution", "circuitbreaker")
	assert.NotZero(t, code, "the solution is closed before a pass: %s", out)

	b.do("open the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker"), chromedp.WaitVisible(chromedp.CSS("#result")))
	b.waitFor("the editor", `document.querySelector(".cm-editor .cm-content") !== null`)
	b.typeInEditor(string(ref))
	b.do("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("saved", statusShowsVerdict)
	before := b.eval("seq", `String(`+seq+`)`)
	b.do("check", chromedp.Click(chromedp.CSS("#check-button")))
	b.waitFor("a pass", seq+` > `+before+` && document.querySelector("#verdict").dataset.status === "pass"`)

	code, out = kursCmd(t, dir, "solution", "circuitbreaker")
	assert.Zero(t, code, out)
	assert.Contains(t, out, "Reference solution", "the pass in the page opens the solution")

	// A save whose result is reused comes back before the watcher notices
	// the page's write; the watcher's check then finds nothing changed and
	// announces the result already shown. The status beside the button
	// must not stay at "checking" after it, but show the verdict again. A
	// second listener on the server's events tells when that announcement
	// has been sent.
	b.typeInEditor(string(ref) + "\n// another version\n")
	before = b.eval("seq", `String(`+seq+`)`)
	b.do("save another version", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("its result", seq+` > `+before+` && document.querySelector("#verdict").dataset.status === "pass"`)
	b.eval("listen", `window.kursHeard = []; new EventSource("/events").addEventListener("result", (e) => kursHeard.push(JSON.parse(e.data).seq)); "ok"`)
	before = b.eval("seq", `String(`+seq+`)`)
	b.typeInEditor(string(ref))
	b.do("save the passing version again", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("its result", seq+` > `+before+` && document.querySelector("#verdict").dataset.status === "pass"`)
	shown := b.eval("seq", `String(`+seq+`)`)
	b.waitFor("the watcher's announcement", `kursHeard.filter((s) => s === `+shown+`).length >= 2`)
	b.waitFor("the status back at the verdict", statusShowsVerdict)

	// The code breaks in another editor; the page checks it and fails.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "circuitbreaker", "circuitbreaker.go"), []byte(breakerLate), 0o644))
	b.waitFor("the failing result", `document.querySelector("#verdict")?.dataset.status === "fail"`)

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

package web_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/browsertest"
)

// TestOutsideSaveKeepsTheCursor: a file saved in another editor while the
// page holds no edits comes into the page's editor, and the cursor stays
// where the learner left it: what they type next lands there, not at the
// top of the file. On a wide screen in English and on a phone's in
// German.
func TestOutsideSaveKeepsTheCursor(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	t.Parallel()
	browsertest.Path(t)
	for _, tc := range []struct {
		lang          string
		width, height int
	}{{"en", 1280, 800}, {"de", 390, 844}} {
		t.Run(tc.lang, func(t *testing.T) {
			dir := newWorkspace(t, tc.lang)
			file := filepath.Join(dir, "circuitbreaker", "circuitbreaker.go")
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			lines := strings.Split(string(data), "\n")
			require.Greater(t, len(lines), 6)
			srv := serve(t, dir, "127.0.0.1:0")
			b := tab{t, browsertest.Start(t, tc.width, tc.height)}
			browsertest.Login(t, b.ctx, srv.login)
			b.do("open the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker?lang="+tc.lang))
			b.waitFor("the editor", `document.querySelector(".cm-editor .cm-content") !== null`)
			b.waitFor("the page's live stream", `document.getElementById("live").className === "live on"`)

			// The cursor at the end of the fourth line.
			b.do("the cursor on line 4", chromedp.Focus(chromedp.CSS(".cm-content")),
				chromedp.KeyEvent(kb.Home, chromedp.KeyModifiers(chromedp.ModifierCtrl)),
				chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown),
				chromedp.KeyEvent(kb.End))

			// Another editor adds a comment below it (within the editor's
			// view: the editor draws only the lines in view).
			changed := slices.Insert(slices.Clone(lines), 6, "// saved elsewhere")
			require.NoError(t, os.WriteFile(file, []byte(strings.Join(changed, "\n")), 0o644))
			b.waitFor("the outside save in the editor", `document.querySelector(".cm-content").textContent.includes("// saved elsewhere")`)

			b.do("type", chromedp.KeyEvent("X"))
			assert.Equal(t, lines[3]+"X", b.eval("line 4", `document.querySelectorAll(".cm-content .cm-line")[3].textContent`),
				"what the learner types after the outside save lands where the cursor was")
		})
	}
}

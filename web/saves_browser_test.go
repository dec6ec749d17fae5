package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/browsertest"
)

// recordStreams is put into the page before its own script runs: it notes
// every result event of the page's own events stream (whether it came
// rendered), and keeps the browser's EventSource for a stream of the
// test's, which stands for another page of the same exercise.
const recordStreams = `(() => {
  window.kursOwn = [];
  const ES = window.EventSource;
  window.kursEventSource = ES;
  window.EventSource = function (url, options) {
    const es = new ES(url, options);
    es.addEventListener("result", (e) => {
      const r = JSON.parse(e.data);
      window.kursOwn.push({seq: r.seq, html: typeof r.html === "string"});
    });
    return es;
  };
})()`

// TestSavesInAndOutsideThePage follows the page's editor through a save in
// another editor and a save in the page, on a wide screen in English and
// on a phone's in German (one page each, as the two take a browser tab,
// a server and a page load alike):
//   - A file saved in another editor while the page holds no edits comes
//     into the editor, and the cursor stays where the learner left it:
//     what they type next lands there, not at the top of the file.
//   - A save with Ctrl+S gets its verdict in the answer to the save, so the
//     page's own events stream does not send that result at all, nor when
//     the watcher sees the saved file and finds it checked; another page
//     of the same exercise gets it rendered, once. The status beside the
//     buttons then shows the verdict.
//   - The editor marks the failing line only in the version of the file
//     that was checked, not in edits that are not saved.
func TestSavesInAndOutsideThePage(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	t.Parallel()
	browsertest.Path(t)
	_, wrong := breaker(t)

	for _, tc := range []struct {
		lang, notice, fails string
		width, height       int
	}{{"en", "Saved", "tests fail", 1280, 800}, {"de", "Gespeichert", "Tests nicht bestanden", 390, 844}} {
		t.Run(tc.lang, func(t *testing.T) {
			dir := newWorkspace(t, tc.lang)
			srv, b := servedTab(t, dir, tc.width, tc.height)
			ctx, cancel := context.WithTimeout(b.ctx, browsertest.Patience(t, 30*time.Second))
			_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: recordStreams})
			cancel()
			require.NoError(t, err, "record the streams")
			b.do("open the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker?lang="+tc.lang))
			b.waitFor("the editor", `document.querySelector(".cm-editor .cm-content") !== null`)
			b.waitFor("the page's live stream", `document.getElementById("live").className === "live on"`)
			b.eval("another page's stream", fmt.Sprintf(`new Promise((resolve) => {
  window.kursOther = [];
  const es = new window.kursEventSource("/events?exercise=circuitbreaker&lang=%s");
  es.addEventListener("result", (e) => {
    const r = JSON.parse(e.data);
    window.kursOther.push({seq: r.seq, html: r.html || ""});
  });
  es.addEventListener("hello", () => resolve("open"));
})`, tc.lang))

			// The cursor at the end of the fourth line; another editor adds
			// a comment below it (within the editor's view: the editor
			// draws only the lines in view).
			file := filepath.Join(dir, "circuitbreaker", "circuitbreaker.go")
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			lines := strings.Split(string(data), "\n")
			require.Greater(t, len(lines), 6)
			b.do("the cursor on line 4", chromedp.Focus(chromedp.CSS(".cm-content")),
				chromedp.KeyEvent(kb.Home, chromedp.KeyModifiers(chromedp.ModifierCtrl)),
				chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown),
				chromedp.KeyEvent(kb.End))
			changed := slices.Insert(slices.Clone(lines), 6, "// saved elsewhere")
			saveElsewhere(t, file, []byte(strings.Join(changed, "\n")))
			b.waitFor("the outside save in the editor", `document.querySelector(".cm-content").textContent.includes("// saved elsewhere")`)
			b.do("type", chromedp.KeyEvent("X"))
			assert.Equal(t, lines[3]+"X", b.eval("line 4", `document.querySelectorAll(".cm-content .cm-line")[3].textContent`),
				"what the learner types after the outside save lands where the cursor was")

			before := b.eval("the verdict before", `String(`+seq+`)`)
			b.typeInEditor(wrong)
			b.do("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
			b.waitFor("the save's verdict", seq+` > `+before+` && document.querySelector("#verdict").dataset.status === "fail"`)
			assert.Contains(t, b.eval("the notice", `document.getElementById("result").innerText`), tc.notice)
			// Beside the buttons, in view where the learner saved (on a
			// phone the result is further down), the status repeats the
			// verdict.
			b.waitFor("the verdict beside the buttons", statusShowsVerdict)
			assert.Contains(t, b.eval("the status", `document.getElementById("status").textContent`), tc.fails)
			assert.Equal(t, "true", b.eval("the status in view", `(() => {
  const r = document.getElementById("status").getBoundingClientRect();
  return String(r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth);
})()`))
			screenshot(t, b, "saved-status-"+tc.lang+".png")
			n := b.eval("the save's check", `String(`+seq+`)`)
			// What the streams carried of the save's result is asked once
			// a later save has been checked: the watcher has seen the
			// page's save by then.
			streams := func() {
				var own []struct {
					Seq int `json:"seq"`
				}
				require.NoError(t, json.Unmarshal([]byte(b.eval("the page's own stream", `JSON.stringify(window.kursOwn.filter((r) => r.seq === `+n+`))`)), &own))
				assert.Empty(t, own, "the page's own stream does not send its save's result: the save's answer has it")
				var other []struct {
					Seq  int    `json:"seq"`
					HTML string `json:"html"`
				}
				require.NoError(t, json.Unmarshal([]byte(b.eval("the other stream", `JSON.stringify(window.kursOther.filter((r) => r.seq === `+n+`))`)), &other))
				require.Len(t, other, 1, "another page gets the save's result once")
				assert.Contains(t, other[0].HTML, `data-seq="`+n+`"`, "rendered")
			}

			// The failing line is marked in the editor. With edits not
			// saved yet, a save elsewhere that moves the code down a line
			// brings a result whose line numbers are the saved file's:
			// the editor marks no line of its own text with them. Once the
			// learner takes the saved file, the mark is back on its code.
			b.waitFor("the marked line", `document.querySelector(".cm-kurs-marked") !== null`)
			marked := b.eval("the marked line", `document.querySelector(".cm-kurs-marked").textContent`)
			b.do("an edit not saved", chromedp.KeyEvent("Y"))
			b.waitFor("unsaved", `document.getElementById("status").classList.contains("dirty")`)
			before = b.eval("the verdict before", `String(`+seq+`)`)
			saveElsewhere(t, file, []byte("// moved down a line\n"+wrong))
			b.waitFor("the result of the file saved elsewhere", seq+` > `+before)
			streams()
			b.waitFor("the question", `!document.getElementById("editor-note").hidden`)
			assert.Equal(t, "[]", b.eval("the marks", `JSON.stringify([...document.querySelectorAll(".cm-kurs-marked")].map((e) => e.textContent).filter((t) => t !== `+fmt.Sprintf("%q", marked)+`))`),
				"no line of other code is marked")
			b.do("show the saved file", chromedp.Click(chromedp.CSS("#editor-note button:first-of-type")))
			b.waitFor("the mark back on its code", `document.querySelector(".cm-kurs-marked")?.textContent === `+fmt.Sprintf("%q", marked))
		})
	}
}

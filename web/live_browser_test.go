package web

import (
	"context"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/browsertest"
)

// TestLivePageShowsTheLatestSave: a save made while the check of the
// previous one runs (an editor's burst split in two, or a file checked
// half written) supersedes that check: the page never shows its verdict,
// only the newer save's, which the event itself brings, with no request of
// the page's in between. In both languages, on a wide screen and a
// phone's.
func TestLivePageShowsTheLatestSave(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	browsertest.Path(t)
	ref, err := fs.ReadFile(kurs.Content(), "exercises/tokenbucket/solution/tokenbucket.go")
	require.NoError(t, err)
	noCap := strings.Replace(string(ref), "min(b.capacity, b.tokens+float64(now-b.last)*b.rate)", "b.tokens+float64(now-b.last)*b.rate", 1)
	require.NotEqual(t, string(ref), noCap)

	for _, tc := range []struct {
		lang, pass    string
		width, height int
	}{{"en", "tests pass", 1280, 800}, {"de", "Tests bestanden", 390, 844}} {
		t.Run(tc.lang, func(t *testing.T) {
			ts := newTestServer(t)
			// The first check a save starts waits, once it has ended,
			// until the test lets it tell the pages.
			ended, release := make(chan struct{}), make(chan struct{})
			var held atomic.Bool
			ts.checked = func(string) {
				if held.CompareAndSwap(false, true) {
					close(ended)
					<-release
				}
			}
			var once sync.Once
			let := func() { once.Do(func() { close(release) }) }
			t.Cleanup(let) // before the server stops, which waits for checks
			ev := ts.events(t)
			name, _ := ev.next(t)
			require.Equal(t, "hello", name)

			ctx := browsertest.Start(t, tc.width, tc.height)
			browsertest.Login(t, ctx, ts.login)
			run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
				t.Helper()
				c, cancel := context.WithTimeout(ctx, browsertest.Patience(t, 30*time.Second))
				defer cancel()
				require.NoError(t, chromedp.Do(c, actions...), what)
			}
			eval := func(what, js string) string {
				t.Helper()
				c, cancel := context.WithTimeout(ctx, browsertest.Patience(t, 30*time.Second))
				defer cancel()
				v, err := chromedp.Run(c, chromedp.Evaluate[string](js))
				require.NoError(t, err, what)
				return v
			}
			// The page checks the exercise, never checked, when it opens;
			// then it notes every verdict it shows.
			run("open the token bucket", chromedp.Navigate(ts.url+"/exercise/tokenbucket?lang="+tc.lang),
				chromedp.WaitVisible(chromedp.CSS("#result")))
			for _, want := range []string{"checking", "result"} {
				name, _ = ev.next(t)
				require.Equal(t, want, name, "the page's own first check")
			}
			run("the first verdict", chromedp.WaitVisible(chromedp.CSS("#verdict")),
				chromedp.Evaluate[chromedp.Void](`(() => {
					performance.clearResourceTimings();
					window.shown = [];
					let last = document.querySelector("#verdict").dataset.seq;
					new MutationObserver(() => {
						const v = document.querySelector("#verdict");
						if (v && v.dataset.seq !== last) {
							last = v.dataset.seq;
							window.shown.push(v.dataset.status);
						}
					}).observe(document.getElementById("result"), {childList: true, subtree: true});
				})()`))
			browsertest.Until(t, "the page's live stream", 30*time.Second, func() (bool, error) {
				return eval("the live note", `document.getElementById("live").className`) == "live on", nil
			}, nil)

			// A wrong bucket is saved and checked; before its result is
			// told, the right one is saved and its check begins.
			ts.write(t, "tokenbucket/tokenbucket.go", noCap)
			ts.watch.ch <- "tokenbucket"
			name, _ = ev.next(t)
			require.Equal(t, "checking", name)
			<-ended
			ts.write(t, "tokenbucket/tokenbucket.go", string(ref))
			ts.watch.ch <- "tokenbucket"
			name, _ = ev.next(t)
			require.Equal(t, "checking", name, "the newer save's check began")
			let()

			name, data := ev.next(t)
			require.Equal(t, "result", name)
			assert.Equal(t, "pass", data["status"], "the first result the pages are told of is the newer save's")
			browsertest.Until(t, "the right bucket's verdict on the page", 30*time.Second, func() (bool, error) {
				return strings.Contains(eval("the verdict", `document.querySelector("#verdict")?.textContent ?? ""`), tc.pass) &&
					strings.HasPrefix(eval("the mark on top", `document.getElementById("mini-status").textContent`), "✓ "), nil
			}, func() string { return eval("the result", `document.getElementById("result").innerHTML`) })
			assert.Equal(t, `["pass"]`, eval("the verdicts shown", `JSON.stringify(window.shown)`),
				"the page showed the newer save's verdict, and never the superseded one's")
			assert.Equal(t, "0", eval("the page's requests for a result",
				`String(performance.getEntriesByType("resource").filter((e) => e.name.includes("/result")).length)`),
				"the verdict came in the event, with no request after it")
		})
	}
}

package web_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/browsertest"
)

// recordStatus notes every status the page shows beside its buttons after
// a Ctrl+S, with the milliseconds since the page received the key.
const recordStatus = `(() => {
  window.kursShown = [];
  document.addEventListener("keydown", (e) => {
    if (e.key === "s" && (e.ctrlKey || e.metaKey)) window.kursKey = performance.now();
  }, true);
  const el = document.getElementById("status");
  new MutationObserver(() => {
    if (window.kursKey !== undefined) kursShown.push({status: el.className, after: performance.now() - kursKey});
  })
    .observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
  return "ok";
})()`

// TestBusyStatusWaits: a save answered at once goes from "not saved"
// straight to its verdict, with no flash of "saving" beside the buttons;
// a save that takes a while says so, once it has taken 150 ms.
func TestBusyStatusWaits(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	t.Parallel()
	browsertest.Path(t)
	ref, err := fs.ReadFile(kurs.Content(), "exercises/circuitbreaker/solution/circuitbreaker.go")
	require.NoError(t, err)
	dir := newWorkspace(t, "de")
	srv := serve(t, dir, "127.0.0.1:0")
	b := tab{t, browsertest.Start(t, 1280, 800)}
	browsertest.Login(t, b.ctx, srv.login)
	b.do("open the breaker", chromedp.Navigate(srv.url+"/exercise/circuitbreaker"), chromedp.WaitVisible(chromedp.CSS("#result")))
	b.waitFor("the editor", `document.querySelector(".cm-editor .cm-content") !== null`)
	b.waitFor("the page's live stream", `document.getElementById("live").className === "live on"`)
	b.eval("record the status", recordStatus)

	type shown struct {
		Status string
		After  float64
	}
	statuses := func() []shown {
		var out []shown
		require.NoError(t, json.Unmarshal([]byte(b.eval("the statuses", `JSON.stringify(kursShown)`)), &out))
		return out
	}

	// A save: whatever "saving" or "checking" the status showed came no
	// sooner than 150 ms after the key (on a busy machine a save may take
	// that long).
	before := b.eval("seq", `String(`+seq+`)`)
	b.typeInEditor(string(ref))
	b.do("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("its verdict", seq+` > `+before+` && `+statusShowsVerdict)
	for _, s := range statuses() {
		if strings.Contains(s.Status, "saving") || strings.Contains(s.Status, "checking") {
			assert.GreaterOrEqual(t, s.After, 150.0, "busy status too soon: %+v", statuses())
		}
	}

	// A save whose request the browser holds: "saving" comes after 150
	// ms, and the verdict replaces it once the answer is in.
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	paused := make(chan fetch.RequestID, 1)
	events := chromedp.Events(ctx, fetch.RequestPaused)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			paused <- ev.RequestID
		}
	}()
	call, stop := context.WithTimeout(b.ctx, browsertest.Patience(t, 30*time.Second))
	defer stop()
	_, err = chromedp.Call(call, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/save?*"}}})
	require.NoError(t, err, "hold the saves")
	b.eval("forget the statuses", `kursShown = []; kursKey = undefined; "ok"`)
	before = b.eval("seq", `String(`+seq+`)`)
	b.typeInEditor(string(ref) + "\n// held\n")
	b.do("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	var id fetch.RequestID
	select {
	case id = <-paused:
	case <-call.Done():
		t.Fatal("the save's request was not held")
	}
	b.waitFor("saving", `document.getElementById("status").classList.contains("saving")`)
	assert.Equal(t, "wird gespeichert", b.eval("the status", `document.getElementById("status").textContent`))
	got := statuses()
	require.NotEmpty(t, got)
	assert.Contains(t, got[0].Status, "saving", "the first status after the key: %+v", got)
	assert.GreaterOrEqual(t, got[0].After, 150.0)
	_, err = chromedp.Call(call, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
	require.NoError(t, err, "let the save go")
	b.waitFor("its verdict", seq+` > `+before+` && `+statusShowsVerdict)
}

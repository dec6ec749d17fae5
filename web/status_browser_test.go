package web_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/browsertest"
)

// recordStatus notes every status the page shows beside its buttons after
// a Ctrl+S, with the milliseconds since the page received the key (the
// first since the record was last cleared).
const recordStatus = `(() => {
  window.kursShown = [];
  document.addEventListener("keydown", (e) => {
    if (e.key === "s" && (e.ctrlKey || e.metaKey) && window.kursKey === undefined) window.kursKey = performance.now();
  }, true);
  const el = document.getElementById("status");
  new MutationObserver(() => {
    if (window.kursKey !== undefined) kursShown.push({status: el.className, after: performance.now() - kursKey});
  })
    .observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
  return "ok";
})()`

// TestBusyStatusWaits: a save answered at once goes from "not saved"
// straight to its verdict, with no flash of "checking" beside the buttons;
// a save that takes a while says so once it has taken 150 ms, and keeps
// saying so long enough to be read. A Ctrl+S pressed while a save is under
// way is not lost: its save follows.
func TestBusyStatusWaits(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	t.Parallel()
	browsertest.Path(t)
	ref, _ := breaker(t)
	dir := newWorkspace(t, "de")
	srv, b := servedTab(t, dir, 1280, 800)
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

	// A save: whatever "checking" the status showed came no sooner than
	// 150 ms after the key (on a busy machine a save may take that long).
	before := b.eval("seq", `String(`+seq+`)`)
	b.typeInEditor(ref)
	b.do("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("its verdict", seq+` > `+before+` && `+statusShowsVerdict)
	for _, s := range statuses() {
		if strings.Contains(s.Status, "checking") {
			assert.GreaterOrEqual(t, s.After, 150.0, "busy status too soon: %+v", statuses())
		}
	}

	// A save whose request the browser holds: "checking" comes after 150
	// ms. Meanwhile the learner types on and saves again: that save is
	// sent once the first is answered, and the file on disk is the last
	// text.
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	paused := make(chan fetch.RequestID, 2)
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
	_, err := chromedp.Call(call, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/save?*"}}})
	require.NoError(t, err, "hold the saves")
	held := func() fetch.RequestID {
		t.Helper()
		select {
		case id := <-paused:
			return id
		case <-call.Done():
			t.Fatal("no save's request came")
			return ""
		}
	}
	let := func(id fetch.RequestID) {
		t.Helper()
		_, err := chromedp.Call(call, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		require.NoError(t, err, "let the save go")
	}
	b.eval("forget the statuses", `kursShown = []; kursKey = undefined; "ok"`)
	before = b.eval("seq", `String(`+seq+`)`)
	b.typeInEditor(ref + "\n// first\n")
	b.do("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	first := held()
	b.waitFor("checking", `document.getElementById("status").classList.contains("checking")`)
	assert.Equal(t, "wird geprüft", b.eval("the status", `document.getElementById("status").textContent`))
	got := statuses()
	require.NotEmpty(t, got)
	assert.Contains(t, got[0].Status, "checking", "the first status after the key: %+v", got)
	assert.GreaterOrEqual(t, got[0].After, 150.0)

	// The first answer comes after "checking" has been up its 400 ms, so
	// that nothing holds the status there but the save that follows.
	b.waitFor("checking up its time", `performance.now() - kursKey >= kursShown.find((s) => s.status.includes("checking")).after + 420`)
	last := ref + "\n// second\n"
	b.typeInEditor(last)
	b.do("save again", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	let(first)
	second := held()
	let(second)
	b.waitFor("the last save's verdict", seq+` > `+before+`+1 && `+statusShowsVerdict)
	saved, err := os.ReadFile(filepath.Join(dir, "circuitbreaker", "circuitbreaker.go"))
	require.NoError(t, err)
	assert.Equal(t, last, string(saved), "the second save was not lost")

	// Once shown, "checking" stayed at least 400 ms, and stayed while the
	// second save followed the first: never "not saved" in between.
	got = statuses()
	for _, s := range got {
		assert.NotContains(t, s.Status, "dirty", "statuses: %+v", got)
	}
	shownAt, gone := -1.0, -1.0
	for _, s := range got {
		if shownAt < 0 && strings.Contains(s.Status, "checking") {
			shownAt = s.After
		}
		if shownAt >= 0 && !strings.Contains(s.Status, "checking") {
			gone = s.After
			break
		}
	}
	require.True(t, shownAt >= 0 && gone >= 0, "statuses: %+v", got)
	// (The observer notes the status a moment after the page's clock
	// starts counting.)
	assert.GreaterOrEqual(t, gone-shownAt, 390.0, "statuses: %+v", got)

	// A save refused twice (here: a page whose token is stale) shows its
	// message once, set off from the bar beside it.
	_, err = chromedp.Call(call, fetch.Disable, cdp.Empty{})
	require.NoError(t, err, "stop holding the saves")
	b.eval("a stale token", `document.querySelector('meta[name="kurs-token"]').content = "stale"; "ok"`)
	b.typeInEditor(last + "// refused\n")
	b.do("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("the refusal", `document.querySelector("#result > p.problem") !== null`)
	b.eval("the first message", `window.kursRefused = document.querySelector("#result > p.problem"); "ok"`)
	b.do("save again", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("the second refusal", `document.querySelector("#result > p.problem") !== kursRefused`)
	assert.Equal(t, "1", b.eval("messages", `String(document.querySelectorAll("#result > p.problem").length)`))
	assert.NotEqual(t, "0px", b.eval("the message's margin", `getComputedStyle(document.querySelector("#result > p.problem")).paddingLeft`))
}

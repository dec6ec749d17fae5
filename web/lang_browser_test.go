package web_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/browsertest"
)

// TestAddressesInTheBrowser: a lesson opened by its address in the other
// language (a link someone shared) lands at its address in the learner's
// language, with the text in that language; and a form's address opened
// in the browser (a reload) says plainly that it has no page and leads
// back to the exercise (405, with Allow), in the learner's language,
// instead of "there is nothing". On the way, the
// overview shows an exercise whose code no check has seen yet (written
// while kurs serve was not running, or a backup restored) as begun, as
// kurs list does, not as "not started".
func TestAddressesInTheBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	// The browser tests wait on the page most of their time: they run
	// beside each other (one Chromium, server and workspace each).
	t.Parallel()
	browsertest.Path(t)
	dir := newWorkspace(t, "de")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bulkheadquiz", "bulkheadquiz.go"),
		[]byte("package bulkheadquiz\n\nvar Answer = [2]string{\"B\", \"A\"}\n"), 0o644))
	srv, b := servedTab(t, dir, 1280, 800)
	state := func(id string) string {
		return b.eval("the state of "+id, `document.querySelector('li[data-exercise="`+id+`"] .state').textContent`)
	}

	b.do("open the overview", chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.CSS("#progress")))
	assert.Equal(t, "begonnen, noch nicht geprüft", state("bulkheadquiz"))
	assert.Equal(t, "nicht begonnen", state("tokenbucket"))

	b.do("open the English address", chromedp.Navigate(srv.url+"/lesson/resilience-2/"), chromedp.WaitVisible(chromedp.CSS("article.lesson")))
	assert.Equal(t, "/lesson/resilienz-2/", b.eval("the address", `location.pathname`))
	assert.Equal(t, "de", b.eval("the language", `document.documentElement.lang`))
	assert.Contains(t, b.eval("the heading", `document.querySelector("article.lesson h1").textContent`), "Resilienz Teil 2")

	// The learner chooses English; the German address leads there now.
	b.do("switch to English", chromedp.Click(chromedp.CSS("#lang-switch")))
	b.waitFor("the English lesson", `document.readyState !== "loading" && document.documentElement.lang === "en" && location.pathname === "/lesson/resilience-2/"`)
	b.do("open the German address", chromedp.Navigate(srv.url+"/lesson/resilienz-2"), chromedp.WaitVisible(chromedp.CSS("article.lesson")))
	assert.Equal(t, "/lesson/resilience-2/", b.eval("the address", `location.pathname`))
	assert.Contains(t, b.eval("the heading", `document.querySelector("article.lesson h1").textContent`), "Resilience part 2")
	b.do("open the overview", chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.CSS("#progress")))
	assert.Equal(t, "begun, not checked yet", state("bulkheadquiz"))
	assert.Equal(t, "not started", state("tokenbucket"))

	// A form's address, typed into the address bar.
	b.do("open the check button's address", chromedp.Navigate(srv.url+"/exercise/circuitbreaker/check"), chromedp.WaitVisible(chromedp.CSS("#message")))
	assert.Equal(t, "This address has no page of its own; the exercise's buttons use it.", b.eval("the message", `document.getElementById("message").textContent`))
	assert.Equal(t, "Back to Circuit breaker as a state machine /exercise/circuitbreaker", b.eval("the way back", `document.getElementById("back").textContent + " " + new URL(document.getElementById("back").href).pathname`))
	assert.Equal(t, "405 POST", b.eval("the status", `fetch(location.href).then(r => r.status + " " + r.headers.get("Allow"))`))
	b.do("in German", chromedp.Navigate(srv.url+"/exercise/circuitbreaker/hint?lang=de"), chromedp.WaitVisible(chromedp.CSS("#message")))
	assert.Equal(t, "Diese Adresse hat keine eigene Seite; die Knöpfe der Übung benutzen sie.", b.eval("the message", `document.getElementById("message").textContent`))
	assert.Contains(t, b.eval("the way back", `document.getElementById("back").textContent`), "Zurück zu Circuit Breaker als Zustandsautomat")
}

package report_test

// The class report in a real browser: Debian's chromium, headless, without
// a sandbox (the test may run as root in a container), and without any
// network: the report is a file.
//
// Without chromium the test skips, except in CI (the CI variable set),
// where it fails.

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/browsertest"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/report"
)

// TestClassReportInBrowser opens the class report of a small class from
// disk, as a teacher does, and checks that it draws its charts, names the
// most common first failure with links to the submissions that share it,
// and asks for nothing but its own file.
func TestClassReportInBrowser(t *testing.T) {
	browser := browsertest.Start(t, 1200, 900)
	var mu sync.Mutex
	var requests []string
	require.NoError(t, chromedp.Listen(browser, func(ev any) {
		var url string
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			url = e.Request.URL
		case network.EventRequestWillBeSent:
			url = e.Request.URL
		default:
			return
		}
		mu.Lock()
		requests = append(requests, url)
		mu.Unlock()
	}))

	// The course tells the report that bulkheadquiz is a quiz; the
	// breaker's tests show by their names.
	c, err := course.Load(os.DirFS("../.."))
	require.NoError(t, err)
	quizEx, ok := c.Exercise("bulkheadquiz")
	require.True(t, ok)

	for _, lang := range []string{"en", "de"} {
		t.Run(lang, func(t *testing.T) {
			var b strings.Builder
			require.NoError(t, report.Class(&b, i18n.New(lang), classBatch(), []*course.Exercise{quizEx}))
			file := filepath.Join(t.TempDir(), "report.html")
			require.NoError(t, os.WriteFile(file, []byte(b.String()), 0o644))
			url := "file://" + file

			ctx, cancel := context.WithTimeout(browser, browsertest.Patience(t, 60*time.Second))
			defer cancel()
			// A desktop's width first (the phone's comes last).
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1200, 900), chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#pass-rates"))))
			eval := func(js string) string {
				t.Helper()
				v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
				require.NoError(t, err, js)
				return v
			}
			// Both charts are drawn: their bars have a size on the page.
			assert.Equal(t, "6", eval(`String(document.querySelectorAll("#score-distribution rect.hist").length)`), "a bar for each score from 0 to 5")
			assert.Equal(t, "true", eval(`String([...document.querySelectorAll("#score-distribution rect.hist")].some(r => r.getBBox().height > 50))`))
			assert.Equal(t, "true", eval(`String(document.querySelector("#pass-rates rect.pass").getBoundingClientRect().width > 50)`))
			assert.Equal(t, "0", eval(`String(document.querySelectorAll("script, img, link, iframe, object").length)`))

			// The heading covers what is no failure too: no attempt yet.
			heading := map[string]string{"en": "What the submissions show, most common first", "de": "Was die Abgaben zeigen, das Häufigste zuerst"}[lang]
			assert.Equal(t, heading, eval(`document.querySelector("#failures").textContent`))
			first := eval(`document.querySelector("#ex-circuitbreaker ol.groups li .what").textContent`)
			want := map[string]string{
				"en": "50% fail first at the test “seed/threshold3-wait5”, at step 8",
				"de": "50 % scheitern zuerst am Test „seed/threshold3-wait5“, bei Schritt 8",
			}[lang]
			assert.Equal(t, want, first, "the most common first failure comes first")
			assert.Equal(t, "ben cara eve", eval(`[...document.querySelectorAll("#ex-circuitbreaker ol.groups:first-of-type li:first-child .subs a")].map(a => a.textContent).join(" ")`))

			// A quiz with no case answered is no attempt yet, not a
			// wrong option.
			quiz := map[string]string{"en": "33% have answered no case yet", "de": "33 % haben noch keinen Fall beantwortet"}[lang]
			assert.Equal(t, quiz, eval(`document.querySelector("#ex-bulkheadquiz ol.groups li .what").textContent`))
			assert.Equal(t, "false", eval(`String(document.querySelector("#ex-bulkheadquiz").textContent.includes("–"))`), "no option – for an empty answer")
			// Its bar agrees: a grey share of a third not attempted,
			// and no failed share.
			assert.Equal(t, "133", eval(`String(document.querySelectorAll("#pass-rates rect.none")[1].getBBox().width)`))
			assert.Equal(t, "0", eval(`String(document.querySelectorAll("#pass-rates rect.fail")[1].getBBox().width)`))
			rates := map[string]string{
				"en": "17% passed, 50% failed, 17% not testable, 16% not attempted yet | 67% passed, 33% not attempted yet",
				"de": "17 % bestanden, 50 % nicht bestanden, 17 % nicht testbar, 16 % noch nicht bearbeitet | 67 % bestanden, 33 % noch nicht bearbeitet",
			}[lang]
			// The labels add up to 100 %, as the shares fill each bar:
			// of three sixths, the earlier two get the point left over.
			assert.Equal(t, rates, eval(`[...document.querySelectorAll("#pass-rates .rate-label")].map(e => e.textContent).join(" | ")`))
			assert.Equal(t, "true", eval(`String([...document.querySelectorAll("#pass-rates svg")].every(s => { const b = s.getBoundingClientRect(), r = [...s.querySelectorAll("rect")].filter(r => r.getBBox().width > 0); return Math.abs(r[0].getBoundingClientRect().left - b.left) < 0.5 && Math.abs(r[r.length-1].getBoundingClientRect().right - b.right) < 0.5 && r.reduce((a, x) => a + x.getBoundingClientRect().width, 0) > b.width - 0.5 }))`), "no gap at the end of a bar")
			// The shares beside the groups take the bars' colours: not
			// attempted grey, not testable red.
			style := func(sel string) string {
				return eval(`getComputedStyle(document.querySelector(` + strconv.Quote(sel) + `)).backgroundColor`)
			}
			assert.Equal(t, style(".legend .none i"), style("#ex-bulkheadquiz ol.none .share"))
			assert.Equal(t, style(".legend .error i"), style("#ex-circuitbreaker ol.apart .share"))
			assert.Equal(t, style(".legend .fail i"), style("#ex-circuitbreaker ol.unnamed .share"))
			assert.NotEqual(t, style(".legend .fail i"), style(".legend .none i"))
			// Beside each bar stands its label, also the longest: the
			// breaker's, with all four shares.
			beside := `String([...document.querySelectorAll("#pass-rates .rate")].every(r => { const b = r.querySelector("svg").getBoundingClientRect(), l = r.querySelector(".rate-label").getBoundingClientRect(); return l.left >= b.right && l.top < b.bottom && l.right <= r.getBoundingClientRect().right + 1 }))`
			assert.Equal(t, "true", eval(beside))

			// A link leads to the submission's row.
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#ex-circuitbreaker ol.groups:first-of-type li:first-child .subs a:nth-child(2)`))))
			assert.Equal(t, "#s3", eval(`location.hash`))
			assert.True(t, strings.HasPrefix(eval(`document.querySelector("tr:target td").textContent`), "cara"))
			assert.Equal(t, lang, eval(`document.documentElement.lang`))

			// On a phone the page scrolls only down (the table of every
			// submission scrolls in its box), and the bars' labels keep a
			// readable size: they go below their bars.
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)))
			assert.Equal(t, "390", eval(`String(window.innerWidth)`))
			assert.Equal(t, "true", eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`), "no sideways scrolling")
			assert.Equal(t, "true", eval(`String([...document.querySelectorAll("#pass-rates .rate-label, #pass-rates .rate-id")].every(e => parseFloat(getComputedStyle(e).fontSize) >= 12 && e.getBoundingClientRect().right <= window.innerWidth))`))
			assert.Equal(t, "true", eval(`String([...document.querySelectorAll("#pass-rates svg")].every(e => e.getBoundingClientRect().width > 200 && e.getBoundingClientRect().right <= window.innerWidth))`))
			// The histogram shrinks with the screen; its numbers grow so
			// that they stay legible.
			assert.Equal(t, "true", eval(`String([...document.querySelectorAll("#score-distribution text")].every(e => e.getBoundingClientRect().height >= 10))`))
		})
	}

	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, requests, "the browser reports its requests")
	for _, u := range requests {
		assert.True(t, strings.HasPrefix(u, "file://"), "the report asked for %s", u)
	}
}

// classBatch is a class of six: anna passes, ben, cara and eve fail the
// breaker first at step 8 of the same test, dan's does not build, fay
// hands in its skeleton; cara and dan answer no case of the quiz.
func classBatch() *report.Batch {
	step := func(n int) *int { return &n }
	pass := report.Exercise{ID: "circuitbreaker", Status: "pass", Score: 4, MaxScore: 4, Message: "all pass",
		Tests: []report.TestCase{{Name: "seed/threshold3-wait5", Status: "pass"}}}
	fail := report.Exercise{ID: "circuitbreaker", Status: "fail", MaxScore: 4, Message: "1 of 2 tests fail",
		Tests: []report.TestCase{{Name: "edge/new", Status: "pass"}, {Name: "seed/threshold3-wait5", Status: "fail", Step: step(8)}}}
	broken := report.Exercise{ID: "circuitbreaker", Status: "error", MaxScore: 4, Message: "The code does not build:\n  circuitbreaker/circuitbreaker.go:3:1: syntax error"}
	skeleton := report.Exercise{ID: "circuitbreaker", Status: "fail", MaxScore: 4, Skeleton: true, Message: "2 of 2 tests fail",
		Tests: []report.TestCase{{Name: "edge/new", Status: "fail", Step: step(0)}, {Name: "seed/threshold3-wait5", Status: "fail", Step: step(1)}}}
	quiz := func(score int) report.Exercise {
		ex := report.Exercise{ID: "bulkheadquiz", Status: "pass", Score: score, MaxScore: 1,
			Tests: []report.TestCase{{Name: "case1", Status: "pass"}}}
		if score == 0 {
			ex.Status, ex.Tests[0].Status = "fail", "fail"
		}
		return ex
	}
	entry := func(id string, exs ...report.Exercise) report.Entry {
		d := &report.Document{Version: 1, Status: "pass", Exercises: exs}
		for _, ex := range exs {
			d.Score += ex.Score
			d.MaxScore += ex.MaxScore
			if ex.Status != "pass" {
				d.Status = "fail"
			}
		}
		return report.Entry{ID: id, Document: d}
	}
	return &report.Batch{Version: 1, Course: "sha256:c0ffee", Seed: 1, ExerciseIDs: []string{"circuitbreaker", "bulkheadquiz"},
		Submissions: []report.Entry{
			entry("anna", pass, quiz(1)), entry("ben", fail, quiz(1)), entry("cara", fail, quiz(0)),
			entry("dan", broken, quiz(0)), entry("eve", fail, quiz(1)), entry("fay", skeleton, quiz(1)),
		}}
}

package web

import (
	"html"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/harness"
)

// TestPageSaysWhichTestsDidNotRun: when the learner's program ended during
// a test (a crash, a time-out), the page lists the tests it never reached
// as not run, as kurs check does (check-not-run.txtar), and not among the
// tests that fail.
func TestPageSaysWhichTestsDidNotRun(t *testing.T) {
	ts := newTestServer(t)
	ex, _ := ts.course.Exercise("circuitbreaker")
	res := &checker.Result{Exercise: ex.ID, Status: checker.Fail, MaxScore: ex.Points, Tests: []checker.Test{
		{Name: "seed/threshold3-wait5", Status: checker.Fail, Failure: &harness.Failure{Kind: harness.Mismatch,
			New: []float64{3, 5}, Step: 0, Call: "New(3, 5)", Observe: "State()", Want: harness.Result{Obs: "closed"}, Got: harness.Result{Obs: "open"}}},
		{Name: "edge/wait-zero", Status: checker.Fail, Missing: true},
		{Name: "edge/failures-must-be-consecutive", Status: checker.Fail, Missing: true},
	}}
	ts.loop.Remember(ex, res)
	for lang, want := range map[string]struct{ heading, item, others string }{
		"en": {"Not run, because the program ended first (2):", "With wait 0, the probe comes at once (edge/wait-zero)", "Also failing"},
		"de": {"Nicht mehr gelaufen, weil das Programm vorher endete (2):", "Bei Wartezeit 0 kommt die Probe sofort (edge/wait-zero)", "Ebenfalls nicht bestanden"},
	} {
		_, frag := ts.get(t, "/exercise/"+ex.ID+"/result?lang="+lang)
		page := html.UnescapeString(frag)
		assert.Contains(t, page, want.heading)
		assert.Contains(t, page, "<li>"+want.item+"</li>")
		assert.NotContains(t, page, want.others, "no test that never ran is said to fail")
	}
}

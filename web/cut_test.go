package web

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
)

// backoffOverflows is the backoff that computes 2ⁿ as 1<<n: Attempt()
// counts as the reference's does, and the delay it returns overflows at
// the 64th call.
func backoffOverflows() *harness.Failure {
	f := &harness.Failure{Kind: harness.Mismatch, New: []float64{1, 1000}, Observe: "Attempt()", Step: 64, Call: "Next(1)",
		Want: harness.Result{Ret: "1000", Obs: "64"}, Got: harness.Result{Ret: "-9223372036854775808", Obs: "64"}}
	for i := 1; i < 64; i++ {
		f.Done = append(f.Done, harness.Done{Call: "Next(1)", Got: harness.Result{Ret: strconv.Itoa(min(1<<(i-1), 1000)), Obs: strconv.Itoa(i)}})
	}
	return f
}

// TestLongTraceShowsTheStepsAroundTheDeparture: the page shows a long
// trace cut to the steps around its departure, with a row that counts
// the steps left out, and every step (and the drawing of them all) in a
// details element that opens without the script.
func TestLongTraceShowsTheStepsAroundTheDeparture(t *testing.T) {
	ts := newTestServer(t)
	ex, _ := ts.course.Exercise("backoff")
	res := &checker.Result{Exercise: ex.ID, Status: checker.Fail, MaxScore: ex.Points,
		Tests: []checker.Test{{Name: "edge/many-attempts-stay-capped", Status: checker.Fail, Failure: backoffOverflows()}}}
	ts.loop.Remember(ex, res)
	for _, lang := range []string{"en", "de"} {
		code, frag := ts.get(t, "/exercise/backoff/result?lang="+lang)
		require.Equal(t, 200, code)
		first, rest, ok := strings.Cut(frag, `<details class="all-steps">`)
		require.True(t, ok, "no details with all steps:\n%s", frag)
		all, after, ok := strings.Cut(rest, "</details>")
		require.True(t, ok)
		shown := strings.Count(first, "<tr class=")
		// New, the row that counts the others, the steps before the
		// departure, the departure and three steps after it.
		assert.Equal(t, explain.AroundSteps+6, shown, "the rows shown at first")
		assert.Contains(t, first, `<tr class="earlier">`)
		assert.Contains(t, first, `<tr class="failing"><td class="n" data-label="`)
		assert.Equal(t, 1, strings.Count(first, `<tr class="failing">`))
		assert.Equal(t, 63, strings.Count(all, `<tr class="step">`), "every step that ran, in the details")
		assert.Contains(t, all, "64")
		assert.NotContains(t, first+after, `class="drawing-box"`, "the drawing of 64 steps waits with them")
		assert.Contains(t, all, `class="drawing-box"`)
		for n := 1; n < 64-explain.AroundSteps; n++ {
			assert.NotContains(t, first, `>`+strconv.Itoa(n)+`</td><td class="call"`, "step %d shown at first", n)
		}
	}
}

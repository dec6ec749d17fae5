package web

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
)

// TestResultViewBoundsLearnerValues gives the page a result whose values
// are 3 MiB long and hold escape sequences: the page shows them escaped and
// cut, with the note on what was cut.
func TestResultViewBoundsLearnerValues(t *testing.T) {
	const evil = "\x1b]0;pwned\x07\x1b[2J\x00\u009b\xff"
	huge := strings.Repeat("x", 3<<20)
	ex := &course.Exercise{ID: "circuitbreaker"}
	f := &harness.Failure{Kind: harness.Mismatch, New: []float64{3, 5}, Observe: "State()",
		Done: []harness.Done{{Call: "Failure(0)", Got: harness.Result{Obs: evil + huge}}},
		Step: 2, Call: "Failure(1)", Want: harness.Result{Obs: "closed"}, Got: harness.Result{Ret: evil, Obs: huge}}
	res := &checker.Result{Exercise: ex.ID, Status: checker.Fail, Output: strings.Repeat(evil+"\n", 10000),
		Tests: []checker.Test{{Name: "seed", Status: checker.Fail, Failure: f},
			{Name: "panic", Status: checker.Fail, Failure: &harness.Failure{Kind: harness.Panicked, Step: 1, Call: "Failure(0)", Panic: evil + huge}}}}
	for lang, note := range map[string]string{"en": "more bytes not shown]", "de": "weitere Bytes nicht angezeigt]"} {
		p := i18n.New(lang)
		v := newResultView(p, ex, res, explain.Options{})
		require.NotEmpty(t, v.Tests)
		tr := v.Tests[0].Trace
		require.NotNil(t, tr)
		value := func(row, side, col int) string {
			cells := tr.Rows[row].Want
			if side == 1 {
				cells = tr.Rows[row].Got
			}
			return cells[col].Value
		}
		shown := []string{v.Output}
		for _, r := range tr.Rows {
			shown = append(shown, r.Call)
			for i := range r.Want {
				shown = append(shown, r.Want[i].Value, r.Got[i].Value)
			}
		}
		for _, s := range shown {
			assert.Less(t, len(s), 40<<10)
			assert.False(t, strings.ContainsAny(s, "\x1b\x07\x00\u009b"), "%.60q", s)
		}
		assert.Contains(t, value(1, 1, 1), note)
		assert.Contains(t, value(2, 1, 1), note)
		assert.Contains(t, v.Output, note)
		assert.Contains(t, value(2, 1, 0), `\x1b]0;pwned\a`)

		res.Tests[0], res.Tests[1] = res.Tests[1], res.Tests[0]
		v = newResultView(p, ex, res, explain.Options{})
		res.Tests[0], res.Tests[1] = res.Tests[1], res.Tests[0]
		assert.Less(t, len(v.Tests[0].Headline), 2<<10)
		assert.Contains(t, v.Tests[0].Headline, note)
		assert.False(t, strings.ContainsAny(v.Tests[0].Headline, "\x1b\x07\x00\u009b"))
	}
}

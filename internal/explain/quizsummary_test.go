package explain

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
)

// TestQuizSummaryCountsCases: a quiz's summary counts cases whether it
// passes or not, in both languages, as its lines and the page's badge do;
// a code exercise's counts tests.
func TestQuizSummaryCountsCases(t *testing.T) {
	c, err := course.Load(os.DirFS("../.."))
	require.NoError(t, err)
	ex, ok := c.Exercise("bulkheadquiz")
	require.True(t, ok)
	res := &checker.Result{Exercise: ex.ID, Status: checker.Pass, Score: ex.Points, MaxScore: ex.Points}
	for _, qc := range ex.Quiz {
		res.Tests = append(res.Tests, checker.Test{Name: fmt.Sprintf("case%d", qc.Case), Status: checker.Pass,
			Note: &harness.Failure{Kind: harness.Quiz, Pass: true, Case: qc.Case, Given: qc.Answer}})
	}
	n := len(ex.Quiz)
	for lang, want := range map[string]string{"en": fmt.Sprintf("%d of %d cases right", n, n), "de": fmt.Sprintf("%d von %d Fällen richtig", n, n)} {
		p := i18n.New(lang)
		assert.Equal(t, want, Explain(p, ex, res, Options{}).Summary, lang)
	}
	code, ok := c.Exercise("circuitbreaker")
	require.True(t, ok)
	passed := &checker.Result{Exercise: code.ID, Status: checker.Pass, Tests: []checker.Test{{Name: "seed", Status: checker.Pass}}}
	summary := Explain(i18n.New("en"), code, passed, Options{}).Summary
	assert.Contains(t, summary, "test")
	assert.NotContains(t, summary, "case")
}

// TestQuizMessageCountsCases: the message of a graded quiz, the one line
// a passing exercise gets in JSON and GitHub's summary, counts cases too,
// when it passes as when it fails.
func TestQuizMessageCountsCases(t *testing.T) {
	c, err := course.Load(os.DirFS("../.."))
	require.NoError(t, err)
	ex, ok := c.Exercise("bulkheadquiz")
	require.True(t, ok)
	n := len(ex.Quiz)
	for _, right := range []int{n, n - 1} {
		res := &checker.Result{Exercise: ex.ID, Status: checker.Pass, Score: right, MaxScore: ex.Points}
		if right < n {
			res.Status = checker.Fail
		}
		for i, qc := range ex.Quiz {
			st := checker.Pass
			if i >= right {
				st = checker.Fail
			}
			res.Tests = append(res.Tests, checker.Test{Name: fmt.Sprintf("case%d", qc.Case), Status: st,
				Note: &harness.Failure{Kind: harness.Quiz, Pass: st == checker.Pass, Case: qc.Case, Given: qc.Answer}})
		}
		for lang, want := range map[string]string{"en": fmt.Sprintf("%d of %d cases right", right, n), "de": fmt.Sprintf("%d von %d Fällen richtig", right, n)} {
			p := i18n.New(lang)
			first, _, _ := strings.Cut(Message(p, ex, res), "\n")
			assert.Equal(t, want, first, "%s, %d right", lang, right)
			assert.Equal(t, want, SummaryFor(p, ex, res), "%s, %d right", lang, right)
		}
	}
}

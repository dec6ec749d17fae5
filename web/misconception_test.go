package web

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
)

// TestResultNamesMisconception: a result that behaves as a recorded
// misconception shows its title and explanation beside the first
// difference, in the learner's language.
func TestResultNamesMisconception(t *testing.T) {
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	ex, _ := c.Exercise("tokenbucket")
	list, err := ex.Misconceptions()
	require.NoError(t, err)
	var m *course.Misconception
	for _, x := range list {
		if x.ID == "no-cap" {
			m = x
		}
	}
	require.NotNil(t, m)
	require.NotNil(t, m.Signature, "recorded")
	// The result a learner's code with this mistake gets: the recorded
	// failures, at their steps, with their values.
	res := &checker.Result{Exercise: ex.ID, Status: checker.Fail}
	for _, test := range ex.Suite.Tests {
		ct := checker.Test{Name: test.Name, Status: checker.Pass}
		for _, name := range m.Signature.Fail {
			if name != test.Name {
				continue
			}
			ct.Status = checker.Fail
			if d, ok := m.Signature.Steps[name]; ok {
				ct.Failure = &harness.Failure{Kind: d.Kind, New: test.New, Step: d.Step, Observe: "Tokens()", Want: d.Want, Got: d.Got}
			} else {
				ct.Failure = &harness.Failure{Kind: harness.Mismatch, Seed: 1, Index: 3, Step: 1, Observe: "Tokens()"}
			}
		}
		res.Tests = append(res.Tests, ct)
	}
	for _, lang := range []string{"en", "de"} {
		p := i18n.New(lang)
		v := newResultView(p, ex, res, explain.Options{})
		require.NotNil(t, v.Misconception, lang)
		assert.Equal(t, p.T("misconception.named", "Title", m.Title.In(lang)), v.Misconception.Line)
		assert.Contains(t, string(v.Misconception.Explanation), "capacity", lang)
	}
}

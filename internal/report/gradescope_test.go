package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/report"
)

// gsResults holds the fields of Gradescope's results.json that kurs
// writes; decoding refuses any other field, so a typo in a field name
// (which Gradescope would silently ignore) fails here.
type gsResults struct {
	Score            *float64 `json:"score"`
	ExecutionTime    *int     `json:"execution_time"`
	Output           string   `json:"output"`
	OutputFormat     string   `json:"output_format"`
	Visibility       string   `json:"visibility"`
	StdoutVisibility string   `json:"stdout_visibility"`
	ExtraData        struct {
		Course   string `json:"course"`
		Kurs     string `json:"kurs"`
		Seed     uint64 `json:"seed"`
		MaxScore int    `json:"max_score"`
	} `json:"extra_data"`
	Tests []struct {
		Name         string   `json:"name"`
		Number       string   `json:"number"`
		Score        *float64 `json:"score"`
		MaxScore     *float64 `json:"max_score"`
		Status       string   `json:"status"`
		Output       string   `json:"output"`
		OutputFormat string   `json:"output_format"`
		Visibility   string   `json:"visibility"`
		Tags         []string `json:"tags"`
	} `json:"tests"`
}

// Values that Gradescope's specification allows.
var (
	gsVisibilities = []string{"hidden", "after_due_date", "after_published", "visible"}
	gsFormats      = []string{"text", "html", "simple_format", "md", "ansi"}
)

func TestGradescope(t *testing.T) {
	graded := fixture(t)
	var b bytes.Buffer
	require.NoError(t, report.Gradescope(&b, i18n.New("en"), graded, fixtureRun))
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	var r gsResults
	require.NoError(t, dec.Decode(&r))

	require.NotNil(t, r.Score)
	require.Len(t, r.Tests, len(graded), "one Gradescope test per exercise")
	var sum, maxSum float64
	for i, tc := range r.Tests {
		res := graded[i].Result
		require.NotNil(t, tc.Score, tc.Name)
		require.NotNil(t, tc.MaxScore, tc.Name)
		assert.Equal(t, float64(res.Score), *tc.Score, tc.Name)
		assert.Equal(t, float64(res.MaxScore), *tc.MaxScore, tc.Name)
		assert.Contains(t, []string{"passed", "failed"}, tc.Status, tc.Name)
		assert.Contains(t, gsVisibilities, tc.Visibility, tc.Name)
		assert.Contains(t, gsFormats, tc.OutputFormat, tc.Name)
		assert.NotEmpty(t, tc.Output, tc.Name)
		assert.NotEmpty(t, tc.Number, tc.Name)
		sum += *tc.Score
		maxSum += *tc.MaxScore
	}
	assert.Equal(t, sum, *r.Score, "the score is the sum of the tests' scores")
	assert.Equal(t, 1.0, *r.Score, "circuitbreaker 0 + tokenbucket 0 + bulkheadquiz 1")
	assert.Equal(t, 9.0, maxSum)
	assert.Equal(t, 9, r.ExtraData.MaxScore)
	assert.Equal(t, uint64(fixtureSeed), r.ExtraData.Seed)
	assert.Contains(t, gsVisibilities, r.Visibility)
	assert.Contains(t, gsVisibilities, r.StdoutVisibility)
	assert.Contains(t, gsFormats, r.OutputFormat)
	require.NotNil(t, r.ExecutionTime)
	assert.Equal(t, "sha256:c0ffee", r.ExtraData.Course)
	assert.Equal(t, "v1.2.0+0123456789ab", r.ExtraData.Kurs, "the kurs build that graded")
	assert.Equal(t, 4, *r.ExecutionTime, "the run's 3.1 s of wall-clock time, rounded up to whole seconds")
	assert.Contains(t, r.Output, "1 of 9 points")
	assert.NotContains(t, r.Output, "--seed", "the seed is for graders, in extra_data")

	cb := r.Tests[0]
	assert.Equal(t, "failed", cb.Status)
	assert.Contains(t, cb.Output, "Step 1, Failure(0), panicked", "the first failing test explained")
	assert.Contains(t, cb.Output, graded[0].Result.Tests[2].Name, "the other failing tests named")
	assert.Contains(t, cb.Output, "| debug", "what the code printed")
	assert.Contains(t, r.Tests[1].Output, "mismatched types int and float64")
	assert.Equal(t, "failed", r.Tests[1].Status)
	assert.True(t, slices.Contains(r.Tests[1].Tags, "error"), "the tags tell error from fail")
}

// A perfect submission gets every point, and Gradescope sees only passes.
func TestGradescopeAllPass(t *testing.T) {
	graded := fixture(t)
	for _, g := range graded {
		g.Result.Status, g.Result.Score, g.Result.Problem = "pass", g.Result.MaxScore, nil
		for i := range g.Result.Tests {
			g.Result.Tests[i].Status, g.Result.Tests[i].Failure = "pass", nil
		}
	}
	var b bytes.Buffer
	require.NoError(t, report.Gradescope(&b, i18n.New("de"), graded, fixtureRun))
	var r gsResults
	require.NoError(t, json.Unmarshal(b.Bytes(), &r))
	assert.Equal(t, 9.0, *r.Score)
	for _, tc := range r.Tests {
		assert.Equal(t, "passed", tc.Status)
		assert.Equal(t, *tc.MaxScore, *tc.Score)
	}
	assert.Contains(t, r.Output, "9 von 9 Punkten", "in the chosen language")
}

// TestGradescopeFlood: a submission that floods its output (a megabyte of
// one line, of short lines, of empty lines) gets a Gradescope test of at
// most 8 KiB, which still explains the failure first and then says how
// much of the output was cut.
func TestGradescopeFlood(t *testing.T) {
	for name, out := range map[string]string{
		"one line":    strings.Repeat("x", 1<<20),
		"short lines": strings.Repeat("x\n", 1<<19),
		"empty lines": strings.Repeat("\n", 1<<20),
	} {
		for _, lang := range i18n.Languages {
			p := i18n.New(lang)
			graded := fixture(t)
			graded[0].Result.Output = out
			var b bytes.Buffer
			require.NoError(t, report.Gradescope(&b, p, graded, fixtureRun))
			var r gsResults
			require.NoError(t, json.Unmarshal(b.Bytes(), &r))
			got := r.Tests[0].Output
			assert.LessOrEqual(t, len(got), 8<<10, "%s, %s", name, lang)
			assert.Contains(t, got[:min(len(got), 1024)], explain.Summary(p, graded[0].Result), "%s: the explanation comes first", name)
			assert.Contains(t, got, p.T("output.printed"), name)
			assert.LessOrEqual(t, b.Len(), 8192, "%s, %s: the whole results.json", name, lang)
			assert.Greater(t, b.Len(), 7<<10, "%s, %s: the output gives way only as far as it must", name, lang)
			assert.Regexp(t, `… \[?[0-9]+ `, got[len(got)-200:], "%s, %s: the end says how much was cut", name, lang)
		}
	}
}

// TestGradescopeEveryExerciseFloods: a student whose code floods its
// output in every exercise of the course, each a megabyte, still gets a
// results.json of at most 8 KiB, in both languages, in which every
// exercise gives its verdict and says how much of its text was cut.
func TestGradescopeEveryExerciseFloods(t *testing.T) {
	c, err := course.Load(os.DirFS("../.."))
	require.NoError(t, err)
	flood := strings.Repeat("flood \x1b[2J\"\\ <b>\n", 1<<17)
	var graded []explain.Graded
	for _, ex := range c.Exercises {
		// Every test fails: the program died after printing.
		res := &checker.Result{Exercise: ex.ID, Status: checker.Fail, MaxScore: ex.Points, Seed: fixtureSeed,
			Output: flood, Crash: "panic: flooded"}
		for _, st := range ex.Suite.Tests {
			res.Tests = append(res.Tests, checker.Test{Name: st.Name, Status: checker.Fail, Missing: true, Crashed: true})
		}
		graded = append(graded, explain.Graded{Exercise: ex, Result: res})
	}
	require.Greater(t, len(graded), 10)
	for _, lang := range i18n.Languages {
		p := i18n.New(lang)
		var b bytes.Buffer
		require.NoError(t, report.Gradescope(&b, p, graded, fixtureRun))
		assert.LessOrEqual(t, b.Len(), 8192, lang)
		t.Logf("%s: results.json of %d bytes for %d flooding exercises", lang, b.Len(), len(graded))
		var r gsResults
		require.NoError(t, json.Unmarshal(b.Bytes(), &r))
		require.Len(t, r.Tests, len(graded))
		for _, tc := range r.Tests {
			assert.Contains(t, tc.Output, "0/", "%s: %s starts with its verdict", lang, tc.Name)
			assert.Regexp(t, `… \[?[0-9]+ `, tc.Output, "%s: %s says how much was cut", lang, tc.Name)
		}
	}
}

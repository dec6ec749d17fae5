package report_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/report"
)

// batch returns three submissions: the fixture's, a perfect one whose id a
// spreadsheet would take for a formula, and one graded only in the quiz.
func batch(t *testing.T) []report.Submission {
	t.Helper()
	perfect := fixture(t)
	for _, g := range perfect {
		g.Result.Status, g.Result.Score = checker.Pass, g.Result.MaxScore
	}
	return []report.Submission{
		{ID: "alice", Graded: fixture(t)},
		{ID: `=HYPERLINK("http://x","bob")`, Graded: perfect},
		{ID: "carol, jr.", Graded: fixture(t)[2:]},
		{ID: "dave\x1b[2J\tx", Graded: fixture(t)[2:]},
	}
}

func TestCSV(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, report.CSV(&b, []string{"circuitbreaker", "tokenbucket", "bulkheadquiz"},
		append(batch(t), report.Submission{ID: "eve\nnew line", Graded: fixture(t)[2:]}), report.CSVRun{Seed: 4711, Course: "sha256:00", Kurs: "v1.2.0"}))
	rows, err := csv.NewReader(&b).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, [][]string{
		{"id", "circuitbreaker", "tokenbucket", "bulkheadquiz", "total", "seed", "course", "kurs"},
		{"alice", "0", "0", "1", "1", "4711", "sha256:00", "v1.2.0"},
		{`'=HYPERLINK("http://x","bob")`, "4", "3", "2", "9", "4711", "sha256:00", "v1.2.0"},
		{"carol, jr.", "", "", "1", "1", "4711", "sha256:00", "v1.2.0"},
		{"dave\\x1b[2J\tx", "", "", "1", "1", "4711", "sha256:00", "v1.2.0"},
		{"eve\nnew line", "", "", "1", "1", "4711", "sha256:00", "v1.2.0"},
	}, rows, "CSV quotes what it must, gives tabs and line breaks back as they were, shows other control characters as escapes, keeps the rest and names the seed and what graded")
}

func TestTable(t *testing.T) {
	var b bytes.Buffer
	subs := batch(t)
	// alice handed in no code for tokenbucket and the unchanged skeleton
	// of the circuit breaker.
	subs[0].Graded[0].Untouched = true
	subs[0].Graded[1].Result.Status = checker.Error
	subs[0].Graded[1].Result.Problem = &checker.Problem{Kind: checker.ProblemNoFiles}
	// dave's code does not build.
	subs[3].Graded[0].Result.Status, subs[3].Graded[0].Result.Score = checker.Error, 0
	subs[3].Graded[0].Result.Problem = &checker.Problem{Kind: checker.ProblemCompile}
	require.NoError(t, report.Table(&b, i18n.New("de"), []string{"circuitbreaker", "tokenbucket", "bulkheadquiz"}, subs, 0))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 6, b.String())
	assert.Regexp(t, `^Abgabe +circuitbreaker +tokenbucket +bulkheadquiz +Punkte$`, lines[0])
	assert.Regexp(t, `^alice +✗ 0/4 \(Gerüst\) +– kein Code +✗ 1/2 +1/9$`, lines[1], "no code and an unchanged skeleton do not read as failing attempts")
	assert.Regexp(t, `^=HYPERLINK\S* +✓ 4/4 +✓ 3/3 +✓ 2/2 +9/9$`, lines[2])
	assert.Regexp(t, `^carol, jr\. + ✗ 1/2 +1/2$`, lines[3])
	assert.Regexp(t, `^dave\\x1b\[2J\\tx + ✗ 0/2 \(kompiliert nicht\) +0/2$`, lines[4], "no control characters reach the terminal; code that does not build says so")
	assert.Equal(t, "Abgaben: 4; davon mit allen Übungen bestanden: 1.", lines[5])
}

// class returns a class graded in all twelve exercises of the course:
// one passes everything, one has code that does not build, a quiz with
// no answer and two exercises without code, one hands in a skeleton,
// and one has code for a third of the course only.
func class() ([]string, []report.Submission) {
	exercises := []string{"circuitbreaker", "backoff", "retrybudget", "retryquiz", "tokenbucket", "breakercall",
		"bulkheadpool", "bulkheadquiz", "gateway", "leastconn", "twochoices", "lbquiz"}
	points := []int{4, 3, 4, 3, 3, 4, 2, 2, 3, 3, 3, 4}
	type mark struct {
		status   checker.Status
		problem  checker.ProblemKind
		skeleton bool
		none     bool
	}
	sub := func(id string, marks map[string]mark) report.Submission {
		s := report.Submission{ID: id}
		for i, ex := range exercises {
			m, ok := marks[ex]
			if !ok {
				m.status = checker.Pass
			}
			res := &checker.Result{Exercise: ex, Status: m.status, MaxScore: points[i]}
			if m.status == checker.Pass {
				res.Score = points[i]
			}
			if m.problem != "" {
				res.Problem = &checker.Problem{Kind: m.problem}
			}
			s.Graded = append(s.Graded, explain.Graded{Result: res, Untouched: m.skeleton, Unanswered: m.none})
		}
		return s
	}
	noCode := mark{status: checker.Error, problem: checker.ProblemNoFiles}
	third := map[string]mark{}
	for _, ex := range exercises[4:] {
		third[ex] = noCode
	}
	return exercises, []report.Submission{
		sub("anna", nil),
		sub("ben-mueller", map[string]mark{
			"retrybudget": {status: checker.Error, problem: checker.ProblemCompile},
			"lbquiz":      {status: checker.Fail, none: true},
			"leastconn":   noCode, "twochoices": noCode,
		}),
		sub("cara", map[string]mark{"circuitbreaker": {status: checker.Fail, skeleton: true}, "gateway": {status: checker.Fail}}),
		sub("dan", third),
	}
}

// TestTableFitsTheWidth draws a class of twelve exercises at several
// widths in both languages: no line is wider than the width, and every
// submission's cell in every exercise is in the text, as a row of the
// table or in the submission's own block.
func TestTableFitsTheWidth(t *testing.T) {
	exercises, subs := class()
	for _, lang := range i18n.Languages {
		p := i18n.New(lang)
		for _, width := range []int{40, 60, 80, 120, 300} {
			var b bytes.Buffer
			require.NoError(t, report.Table(&b, p, exercises, subs, width))
			out := b.String()
			for _, l := range strings.Split(out, "\n") {
				assert.LessOrEqual(t, utf8.RuneCountInString(l), width, "%s, %d columns:\n%s", lang, width, l)
			}
			// Every cell is there: in a table in its row, under its
			// column; in blocks beside its exercise.
			for _, s := range subs {
				assert.Contains(t, out, s.ID)
				for _, g := range s.Graded {
					var cell string
					switch {
					case g.Result.Status == checker.Pass:
						cell = fmt.Sprintf("✓ %d/%d", g.Result.Score, g.Result.MaxScore)
					case g.Result.Problem != nil && g.Result.Problem.Kind == checker.ProblemNoFiles:
						cell = "– " + p.T("grade.cell_no_code")
					default:
						cell = fmt.Sprintf("✗ %d/%d", g.Result.Score, g.Result.MaxScore)
					}
					assert.Contains(t, out, cell)
					if width < 300 {
						assert.Regexp(t, `(?m)(^|  )`+g.Result.Exercise+`\s+`+regexp.QuoteMeta(cell), out, "%s, %d columns", lang, width)
					}
				}
			}
			if width < 300 {
				assert.Regexp(t, `(?m)^ben-mueller — 24/38 `, out)
				assert.Regexp(t, `(?m)(^|  )retrybudget\s+✗ 0/4 `+regexp.QuoteMeta(p.T("grade.cell_no_build")), out)
				assert.Regexp(t, `(?m)(^|  )circuitbreaker\s+✗ 0/4 `+regexp.QuoteMeta(p.T("grade.cell_skeleton")), out)
			} else {
				assert.Regexp(t, `(?m)^cara +✗ 0/4 `+regexp.QuoteMeta(p.T("grade.cell_skeleton"))+` +✓ 3/3 `, out)
			}
		}
	}
}

// TestTableLegend: a class whose rows fit once the exercises' columns are
// headed by numbers gets a table with a legend above it.
func TestTableLegend(t *testing.T) {
	exercises, subs := class()
	exercises = exercises[:6]
	subs = subs[2:] // cara and dan: no cell says why it fails
	for i := range subs {
		subs[i].Graded = subs[i].Graded[:6]
	}
	var b bytes.Buffer
	require.NoError(t, report.Table(&b, i18n.New("de"), exercises, subs, 80))
	assert.Equal(t, `Übungen: 1 circuitbreaker, 2 backoff, 3 retrybudget, 4 retryquiz, 5 tokenbucket,
  6 breakercall

Abgabe  1               2      3      4      5            6            Punkte
cara    ✗ 0/4 (Gerüst)  ✓ 3/3  ✓ 4/4  ✓ 3/3  ✓ 3/3        ✓ 4/4        17/21
dan     ✓ 4/4           ✓ 3/3  ✓ 4/4  ✓ 3/3  – kein Code  – kein Code  14/21
Abgaben: 2; davon mit allen Übungen bestanden: 0.
`, b.String())
}

// TestCellSaysNotTestable: an exercise that could not be tested for a
// reason of its own (a refused import, a misnamed package) says so in
// its cell, as code that does not build does: 0 points alone read like
// failing every test.
func TestCellSaysNotTestable(t *testing.T) {
	b := &report.Batch{ExerciseIDs: []string{"circuitbreaker"}}
	for _, x := range []report.Exercise{
		{ID: "circuitbreaker", Status: "error", Problem: "import", MaxScore: 4, Message: "refused"},
		{ID: "circuitbreaker", Status: "fail", MaxScore: 4, Tests: []report.TestCase{{Name: "t", Status: "fail"}}},
	} {
		b.Submissions = append(b.Submissions, report.Entry{ID: x.Status, Document: &report.Document{Exercises: []report.Exercise{x}, MaxScore: 4}})
	}
	for lang, want := range map[string]string{"en": "(not testable)", "de": "(nicht testbar)"} {
		var out bytes.Buffer
		require.NoError(t, report.BatchText(&out, i18n.New(lang), b, report.BatchTextOptions{Width: 80}))
		assert.Regexp(t, `(?m)^error +✗ 0/4 `+regexp.QuoteMeta(want)+` `, out.String(), lang)
		assert.Regexp(t, `(?m)^fail +✗ 0/4 +0/4$`, out.String(), "%s: a failing attempt has its points alone", lang)
	}
}

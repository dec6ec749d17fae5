package report_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
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
	require.NoError(t, report.CSV(&b, []string{"circuitbreaker", "tokenbucket", "bulkheadquiz"}, batch(t), 4711))
	rows, err := csv.NewReader(&b).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, [][]string{
		{"id", "circuitbreaker", "tokenbucket", "bulkheadquiz", "total", "seed"},
		{"alice", "0", "0", "1", "1", "4711"},
		{`'=HYPERLINK("http://x","bob")`, "4", "3", "2", "9", "4711"},
		{"carol, jr.", "", "", "1", "1", "4711"},
		{`dave\x1b[2J\tx`, "", "", "1", "1", "4711"},
	}, rows, "CSV quotes what it must, shows control characters as escapes, keeps the rest and names the seed")
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
	require.NoError(t, report.Table(&b, i18n.New("de"), []string{"circuitbreaker", "tokenbucket", "bulkheadquiz"}, subs))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 6, b.String())
	assert.Regexp(t, `^Abgabe +circuitbreaker +tokenbucket +bulkheadquiz +Punkte$`, lines[0])
	assert.Regexp(t, `^alice +✗ 0/4 \(Gerüst\) +– kein Code +✗ 1/2 +1/9$`, lines[1], "no code and an unchanged skeleton do not read as failing attempts")
	assert.Regexp(t, `^=HYPERLINK\S* +✓ 4/4 +✓ 3/3 +✓ 2/2 +9/9$`, lines[2])
	assert.Regexp(t, `^carol, jr\. + ✗ 1/2 +1/2$`, lines[3])
	assert.Regexp(t, `^dave\\x1b\[2J\\tx + ✗ 0/2 \(kompiliert nicht\) +0/2$`, lines[4], "no control characters reach the terminal; code that does not build says so")
	assert.Equal(t, "Abgaben: 4; davon mit allen Übungen bestanden: 1.", lines[5])
}

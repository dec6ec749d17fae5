package report_test

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/report"
)

func exercisesOf(graded []explain.Graded) []*course.Exercise {
	var exs []*course.Exercise
	for _, g := range graded {
		exs = append(exs, g.Exercise)
	}
	return exs
}

// junitBatch is a class of four: the fixture's submission, one with no
// files, one hostile, and one whose id a spreadsheet or terminal would
// misread.
func junitBatch(t *testing.T, lang string) *report.Batch {
	t.Helper()
	p := i18n.New(lang)
	b := &report.Batch{Version: report.Version, Course: "sha256:c0ffee", Kurs: "v1.2.0+0123456789ab", Seed: 7}
	for _, g := range fixture(t) {
		b.ExerciseIDs = append(b.ExerciseIDs, g.Exercise.ID)
	}
	add := func(id string, graded []explain.Graded) {
		b.Submissions = append(b.Submissions, report.Entry{ID: id, Document: report.NewDocumentFor(p, graded, explain.Teacher)})
	}
	add("alice", fixture(t))
	add("bob", untestable(t)[0])
	add("carol", hostile(t)[:3])
	add("=dave\x1b[2J <&>", fixture(t))
	return b
}

// TestBatchJUnit: one testsuite per submission and exercise, named
// ID/EXERCISE in the package ID, with testcases of the class ID.EXERCISE;
// an exercise that could not be tested has an error in each hidden test.
func TestBatchJUnit(t *testing.T) {
	b := junitBatch(t, "en")
	var out bytes.Buffer
	require.NoError(t, report.BatchJUnit(&out, i18n.New("en"), b, exercisesOf(fixture(t))))
	var doc xmlSuites
	require.NoError(t, xml.Unmarshal(out.Bytes(), &doc), out.String())
	require.Len(t, doc.Suites, 4*3)
	alice := doc.Suites[0]
	assert.Equal(t, "alice/circuitbreaker", alice.Name)
	assert.Equal(t, "alice", alice.Package)
	assert.Equal(t, 14, alice.Tests)
	assert.Equal(t, 2, alice.Failures)
	assert.Equal(t, "alice.circuitbreaker", alice.Cases[0].Classname)
	var types []string
	for _, c := range alice.Cases {
		if c.Failure != nil {
			types = append(types, c.Failure.Type)
		}
	}
	assert.Equal(t, []string{"panic", "failure"}, types, "a failure's type says how the test failed, as the document does")
	props := map[string]string{}
	for _, p := range alice.Properties {
		props[p.Name] = p.Value
	}
	assert.Equal(t, map[string]string{"submission": "alice", "course": "sha256:c0ffee", "kurs": "v1.2.0+0123456789ab", "seed": "7", "score": "0", "max_score": "4",
		"file": "circuitbreaker/circuitbreaker.go", "line": "43"}, props, "where the first failing test panicked")

	tb := doc.Suites[1]
	assert.Equal(t, "alice/tokenbucket", tb.Name)
	assert.Equal(t, tb.Tests, tb.Errors, "a submission that does not build: an error in every test")
	tbProps := map[string]string{}
	for _, p := range tb.Properties {
		tbProps[p.Name] = p.Value
	}
	require.NotEmpty(t, tbProps["file"], "the compile error's file")
	assert.True(t, strings.HasPrefix(tb.Cases[0].Error.Text, tbProps["file"]+":"+tbProps["line"]+"\n"), "the error's text begins with the position: %q", tb.Cases[0].Error.Text)
	assert.Equal(t, "The code does not build. First error: tokenbucket/tokenbucket.go:15:38: invalid operation: (now - b.last) * b.rate (mismatched types int and float64)",
		tb.Cases[0].Error.Message, "the message, which a CI viewer shows alone, has the compiler's first error")

	bob := doc.Suites[3]
	assert.Equal(t, "bob/circuitbreaker", bob.Name)
	require.NotEmpty(t, bob.Cases)
	assert.Equal(t, len(fixture(t)[0].Exercise.Suite.Tests), bob.Errors, "every hidden test of a missing exercise is an error")
	assert.Equal(t, "The submission has no .go file for circuitbreaker.", bob.Cases[0].Error.Message)

	dave := doc.Suites[9]
	assert.Equal(t, `=dave\x1b[2J <&>/circuitbreaker`, dave.Name, "an id's control characters escaped, markup kept as text")
	assert.False(t, strings.ContainsRune(out.String(), 0x1b))
}

package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// The JUnit XML that GitLab, Jenkins and most CI servers read. There is no
// formal standard; these are the elements and attributes that Jenkins'
// JUnit plugin and GitLab's test report parser both understand.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Time       string          `xml:"time,attr"`
		Properties []junitProperty `xml:"properties>property"`
		Cases      []junitCase     `xml:"testcase"`
		SystemOut  string          `xml:"system-out,omitempty"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		File      string        `xml:"file,attr,omitempty"`
		Line      int           `xml:"line,attr,omitempty"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// JUnit writes the results as JUnit XML: one testsuite per exercise and one
// testcase per hidden test. A failed test carries a failure whose message
// names the step that failed and whose text shows the trace up to it. When
// an exercise could not be tested at all, each of its hidden tests is an
// error carrying the reason, so the counts are the same for every
// submission. Each testsuite has the properties seed, score and max_score.
//
// Durations are the only part that differs between two runs on the same
// submission; testcases have none, since the hidden tests of an exercise
// run in one process and are not timed one by one.
//
// What the learner's code returned, panicked with and printed is escaped
// and cut (see package textsafe): a testcase's text holds at most
// textsafe.TestMax bytes and an exercise's system-out textsafe.OutputMax,
// which keeps a document for a course of a dozen exercises at a few
// megabytes at most, far below what GitLab reads (30 MB).
func JUnit(w io.Writer, p *i18n.Printer, graded []Graded) error {
	doc := junitSuites{Name: "kurs"}
	var total time.Duration
	for _, g := range graded {
		res := g.Result
		s := junitSuite{
			Name: res.Exercise,
			Time: seconds(res.Duration),
			Properties: []junitProperty{
				{"seed", strconv.FormatUint(res.Seed, 10)},
				{"score", strconv.Itoa(res.Score)},
				{"max_score", strconv.Itoa(res.MaxScore)},
			},
		}
		if res.Status != checker.Pass {
			s.SystemOut = textsafe.Text(p, res.Output, textsafe.OutputMax)
		}
		if res.Status == checker.Error {
			s.Cases = errorCases(p, g)
			s.Errors = len(s.Cases)
		} else {
			for i := range res.Tests {
				c := testCase(p, g, &res.Tests[i])
				if c.Failure != nil {
					s.Failures++
				}
				s.Cases = append(s.Cases, c)
			}
		}
		s.Tests = len(s.Cases)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		total += res.Duration
		doc.Suites = append(doc.Suites, s)
	}
	doc.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// errorCases returns one error per hidden test of an exercise that could
// not be tested, each with the reason. A crash or hang before the first
// test also leaves every test of res.Tests missing; the errors say so once
// each rather than twice.
func errorCases(p *i18n.Printer, g Graded) []junitCase {
	res := g.Result
	file, line := position(res)
	file = textsafe.Line(p, file, textsafe.ValueMax)
	msg := textsafe.Text(p, Problem(p, res.Problem), textsafe.TestMax)
	kind := string(checker.ProblemInternal)
	if res.Problem != nil {
		kind = string(res.Problem.Kind)
	}
	var cases []junitCase
	for _, t := range g.Exercise.Suite.Tests {
		cases = append(cases, junitCase{
			Name: t.Name, Classname: res.Exercise, File: file, Line: line,
			Error: &junitProblem{Message: firstLine(p, msg), Type: kind, Text: msg},
		})
	}
	return cases
}

// testCase returns the testcase of a hidden test that ran (or should have):
// a failure names the step that failed, its text shows the trace.
func testCase(p *i18n.Printer, g Graded, t *checker.Test) junitCase {
	c := junitCase{Name: t.Name, Classname: g.Result.Exercise}
	if t.Status == checker.Pass {
		return c
	}
	msg := textsafe.Text(p, Test(p, g.Exercise, g.Result, t), textsafe.TestMax)
	kind := "missing" // the program ended before the test reported
	if t.Failure != nil {
		kind = t.Failure.Kind
		c.File, c.Line = frame(t.Failure.Frame)
		c.File = textsafe.Line(p, c.File, textsafe.ValueMax)
	}
	c.Failure = &junitProblem{Message: firstLine(p, msg), Type: kind, Text: msg}
	return c
}

// seconds formats a duration as JUnit's time attribute wants it.
func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// firstLine returns s up to its first line break, cut to
// textsafe.ValueMax; JUnit viewers show the message attribute on one line
// and the element's text below it.
func firstLine(p *i18n.Printer, s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return textsafe.Line(p, strings.TrimSuffix(s, ":"), textsafe.ValueMax)
}

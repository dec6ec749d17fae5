package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// The JUnit XML that GitLab, Jenkins and most CI servers read. There is no
// formal standard; kurs writes what Jenkins xunit's junit-10.xsd allows
// (the strictest of the consumers: xunit skips a file that does not
// validate), which GitLab's test report parser and Jenkins' JUnit plugin
// read as well. The schema has no file or line on a testcase, so the
// learner's position goes where it allows: the properties file and line of
// the testsuite, its file attribute, and the first line of the failure's
// or error's text ("circuitbreaker/circuitbreaker.go:43").
type (
	junitSuites struct {
		XMLName xml.Name `xml:"testsuites"`
		Name    string   `xml:"name,attr"`
		junitCounts
		Time   string       `xml:"time,attr"`
		Suites []junitSuite `xml:"testsuite"`
	}
	// junitCounts are the counts of testcases that the testsuites element
	// and each testsuite have.
	junitCounts struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
	}
	junitSuite struct {
		Name string `xml:"name,attr"`
		junitCounts
		Skipped    int             `xml:"skipped,attr"`
		Time       string          `xml:"time,attr"`
		File       string          `xml:"file,attr,omitempty"`
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
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// JUnit writes the results as JUnit XML that validates against Jenkins
// xunit's junit-10.xsd: one testsuite per exercise and one testcase per
// hidden test. A failed test carries a failure whose message names the
// step that failed and whose text shows the trace up to it, after the
// learner's file and line when there is one. When an exercise could not be
// tested at all, each of its hidden tests is an error carrying the reason,
// so the counts are the same for every submission. Each testsuite has the
// properties course, seed, score and max_score, and file and line when
// the result points at the learner's code; file names are relative to the
// repository root (run.Dir).
//
// Times: the testsuites element has the run's wall-clock time
// (run.Elapsed), a testsuite its exercise's check. The hidden tests of an
// exercise run in one process and are not timed one by one, so each
// testcase has an equal share of its exercise's time. Times are the only
// part that differs between two runs on the same submission.
//
// What the learner's code returned, panicked with and printed is escaped
// and cut (see package textsafe): a testcase's text holds at most
// textsafe.TestMax bytes and an exercise's system-out textsafe.OutputMax,
// which keeps a document for a course of a dozen exercises at a few
// megabytes at most, far below what GitLab reads (30 MB).
func JUnit(w io.Writer, p *i18n.Printer, graded []Graded, run Run) error {
	doc := junitSuites{Name: "kurs", Time: seconds(run.Elapsed)}
	for _, g := range graded {
		res := g.Result
		s := junitSuite{
			Name: res.Exercise,
			Time: seconds(res.Duration),
			Properties: []junitProperty{
				{"course", run.Course},
				{"seed", strconv.FormatUint(res.Seed, 10)},
				{"score", strconv.Itoa(res.Score)},
				{"max_score", strconv.Itoa(res.MaxScore)},
			},
		}
		file, line := position(res)
		if file != "" {
			file = path.Join(run.Dir, textsafe.Line(p, file, textsafe.ValueMax))
			s.File = file
			s.Properties = append(s.Properties, junitProperty{"file", file})
			if line > 0 {
				s.Properties = append(s.Properties, junitProperty{"line", strconv.Itoa(line)})
			}
		}
		if res.Status != checker.Pass {
			s.SystemOut = textsafe.Text(p, res.Output, textsafe.OutputMax)
		}
		if res.Status == checker.Error {
			s.Cases = errorCases(p, g, at(file, line))
			s.Errors = len(s.Cases)
		} else {
			for i := range res.Tests {
				c := testCase(p, g, &res.Tests[i], run.Dir)
				if c.Failure != nil {
					s.Failures++
				}
				s.Cases = append(s.Cases, c)
			}
			nameMisconception(p, g, s.Cases)
		}
		if n := len(s.Cases); n > 0 {
			share := seconds(res.Duration / time.Duration(n))
			for i := range s.Cases {
				s.Cases[i].Time = share
			}
		}
		s.Tests = len(s.Cases)
		doc.add(s.junitCounts)
		doc.Suites = append(doc.Suites, s)
	}
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

// add counts the testcases of c too.
func (c *junitCounts) add(o junitCounts) {
	c.Tests += o.Tests
	c.Failures += o.Failures
	c.Errors += o.Errors
}

// at returns "FILE:LINE", "FILE" or "", as compilers name a position.
func at(file string, line int) string {
	switch {
	case file == "":
		return ""
	case line > 0:
		return file + ":" + strconv.Itoa(line)
	}
	return file
}

// withPosition puts the position on a line of its own before the text.
func withPosition(pos, text string) string {
	if pos == "" {
		return text
	}
	return pos + "\n" + text
}

// errorCases returns one error per hidden test of an exercise that could
// not be tested, each with the reason after the position pos. A crash or
// hang before the first test also leaves every test of res.Tests missing;
// the errors say so once each rather than twice.
func errorCases(p *i18n.Printer, g Graded, pos string) []junitCase {
	res := g.Result
	msg := textsafe.Text(p, problem(p, res.Problem, Teacher, res.Exercise), textsafe.TestMax)
	kind := string(checker.ProblemInternal)
	if res.Problem != nil {
		kind = string(res.Problem.Kind)
	}
	var cases []junitCase
	for _, t := range g.Exercise.Suite.Tests {
		cases = append(cases, junitCase{
			Name: t.Name, Classname: res.Exercise,
			Error: &junitProblem{Message: firstLine(p, msg), Type: kind, Text: withPosition(pos, msg)},
		})
	}
	return cases
}

// testCase returns the testcase of a hidden test that ran (or should have):
// a failure names the step that failed, its text shows the trace after the
// learner's file and line, relative to the repository root dir, when the
// test panicked there.
func testCase(p *i18n.Printer, g Graded, t *checker.Test, dir string) junitCase {
	c := junitCase{Name: t.Name, Classname: g.Result.Exercise}
	if t.Status == checker.Pass {
		return c
	}
	msg := textsafe.Text(p, Test(p, g.Exercise, g.Result, t), textsafe.TestMax)
	kind := "missing" // the program ended before the test reported
	pos := ""
	if t.Failure != nil {
		kind = t.Failure.Kind
		if file, line := frame(t.Failure.Frame); file != "" {
			pos = at(path.Join(dir, textsafe.Line(p, file, textsafe.ValueMax)), line)
		}
	}
	c.Failure = &junitProblem{Message: firstLine(p, msg), Type: kind, Text: withPosition(pos, msg)}
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

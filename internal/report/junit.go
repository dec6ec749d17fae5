package report

import (
	"encoding/xml"
	"fmt"
	"go/token"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// The JUnit XML that GitLab, Jenkins and most CI servers read. There is no
// formal standard; kurs writes what both schemas that JUnit's readers hold
// a file to accept: Jenkins xunit's junit-10.xsd (xunit skips a file that
// does not validate) and Ant's JUnit.xsd, which many tools still use.
// Between the two little remains: no attribute on testsuites; on each
// testsuite name, timestamp, hostname, tests, failures, errors, time,
// package and id, and the elements properties, system-out and system-err;
// no file or line anywhere. So the learner's position goes where both
// allow: the properties file and line of the testsuite, and the first line
// of the failure's or error's text ("circuitbreaker/circuitbreaker.go:43").
type (
	junitSuites struct {
		XMLName xml.Name     `xml:"testsuites"`
		Suites  []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name      string `xml:"name,attr"`
		Timestamp string `xml:"timestamp,attr"`
		Hostname  string `xml:"hostname,attr"`
		junitCounts
		Time       string          `xml:"time,attr"`
		Package    string          `xml:"package,attr"`
		ID         int             `xml:"id,attr"`
		Properties []junitProperty `xml:"properties>property"`
		Cases      []junitCase     `xml:"testcase"`
		SystemOut  string          `xml:"system-out"`
		SystemErr  string          `xml:"system-err"`
	}
	// junitCounts are the counts of a testsuite's testcases.
	junitCounts struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
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

// junitHost is the hostname of every testsuite, which Ant's schema
// requires: the grader, not the machine, so that the shards of a class,
// graded on several machines, give the JUnit of one run.
const junitHost = "kurs"

// JUnit writes the results as JUnit XML that validates against Jenkins
// xunit's junit-10.xsd and Ant's JUnit.xsd: one testsuite per exercise and
// one testcase per hidden test. A failed test carries a failure whose
// message names the step that failed and whose text shows the trace up to
// it, after the learner's file and line when there is one. When an
// exercise could not be tested at all, each of its hidden tests is an
// error carrying the reason, so the counts are the same for every
// submission. Each testsuite has the properties course, seed, score and
// max_score, and file and line when the result points at the learner's
// code; file names are relative to the workspace, as in the result
// document and the panic's own message.
//
// Times: a testsuite has the time of its exercise's check and the
// timestamp of the run's start (run.Started, else now). The hidden tests
// of an exercise run in one process and are not timed one by one, so each
// testcase has an equal share of its exercise's time. Times are the only
// part that differs between two runs on the same submission.
//
// What the learner's code returned, panicked with and printed is escaped
// and cut (see package textsafe): a testcase's text holds at most
// textsafe.TestMax bytes and an exercise's system-out textsafe.OutputMax,
// which keeps a document for a course of a dozen exercises at a few
// megabytes at most, far below what GitLab reads (30 MB).
func JUnit(w io.Writer, p *i18n.Printer, graded []explain.Graded, run Run) error {
	doc := junitSuites{}
	stamp := timestamp(run.Started)
	for i, g := range graded {
		res := g.Result
		s := junitSuite{
			Name: res.Exercise, Timestamp: stamp, Hostname: junitHost,
			Time: seconds(res.Duration), Package: "kurs", ID: i,
			Properties: []junitProperty{
				{"course", run.Course},
				{"kurs", run.Kurs},
				{"seed", strconv.FormatUint(res.Seed, 10)},
				{"score", strconv.Itoa(res.Score)},
				{"max_score", strconv.Itoa(res.MaxScore)},
			},
		}
		file, line := explain.Position(res)
		if file != "" {
			file = textsafe.Line(p, file, textsafe.ValueMax)
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
		} else {
			for i := range res.Tests {
				s.Cases = append(s.Cases, testCase(p, g, &res.Tests[i]))
			}
			nameMisconception(p, g, s.Cases)
		}
		if n := len(s.Cases); n > 0 {
			share := seconds(res.Duration / time.Duration(n))
			for i := range s.Cases {
				s.Cases[i].Time = share
			}
		}
		s.count()
		doc.Suites = append(doc.Suites, s)
	}
	return writeJUnit(w, doc)
}

// batchJUnit writes a batch as JUnit XML, valid as JUnit is (see JUnit):
// one testsuite per submission and exercise, named "ID/EXERCISE" in the
// package ID, its testcases of the class "ID.EXERCISE", so that a CI's
// test report groups them by submission (GitLab by suite, Jenkins by
// package). Where the result points in the submission's files (the
// document's file and line) is a property of the suite, and stands before
// the text of an exercise that could not be tested, as in JUnit. It is made from the batch's document alone, so that merged
// shards give the JUnit of one run; exercises gives the hidden tests of
// an exercise that could not be tested, one error each (without it, the
// exercise is one error).
//
// The document has no durations: every time is 0, and the timestamp is
// b.Written, else when the JUnit was written, the only part that differs
// between two writes of one document.
func batchJUnit(w io.Writer, p *i18n.Printer, b *Batch, exercises []*course.Exercise) error {
	doc := junitSuites{Suites: []junitSuite{}}
	stamp := timestamp(b.Written)
	byID := map[string]*course.Exercise{}
	for _, ex := range exercises {
		byID[ex.ID] = ex
	}
	for _, e := range b.Submissions {
		if e.Document == nil {
			continue
		}
		id := textsafe.Line(p, e.ID, textsafe.ValueMax)
		for _, ex := range e.Exercises {
			class := id + "." + ex.ID
			s := junitSuite{
				Name: id + "/" + ex.ID, Timestamp: stamp, Hostname: junitHost,
				Time: seconds(0), Package: id, ID: len(doc.Suites),
				Properties: []junitProperty{
					{"submission", id},
					{"course", b.Course},
					{"kurs", b.Kurs},
					{"seed", strconv.FormatUint(b.Seed, 10)},
					{"score", strconv.Itoa(ex.Score)},
					{"max_score", strconv.Itoa(ex.MaxScore)},
				},
			}
			if ex.File != "" {
				s.Properties = append(s.Properties, junitProperty{"file", ex.File})
				if ex.Line > 0 {
					s.Properties = append(s.Properties, junitProperty{"line", strconv.Itoa(ex.Line)})
				}
			}
			if ex.Status == string(checker.Error) {
				problem := &junitProblem{Message: errorMessage(p, checker.ProblemKind(ex.Problem), ex.Message), Type: "error", Text: withPosition(at(ex.File, ex.Line), ex.Message)}
				names := []string{ex.ID}
				if c := byID[ex.ID]; c != nil && len(c.Suite.Tests) > 0 {
					names = names[:0]
					for _, t := range c.Suite.Tests {
						names = append(names, t.Name)
					}
				}
				for _, name := range names {
					s.Cases = append(s.Cases, junitCase{Name: name, Classname: class, Time: seconds(0), Error: problem})
				}
			} else {
				for _, t := range ex.Tests {
					c := junitCase{Name: t.Name, Classname: class, Time: seconds(0)}
					if t.Status != string(checker.Pass) {
						// How it failed, as the document says it: panic,
						// timeout, crash or not_run; a test whose code
						// just answered otherwise is a plain failure.
						kind := t.Failure
						if kind == "" {
							kind = "failure"
						}
						c.Failure = &junitProblem{Message: firstLine(p, departure(t.Message)), Type: kind, Text: withPosition(at(t.File, t.Line), t.Message)}
					}
					s.Cases = append(s.Cases, c)
				}
			}
			s.count()
			doc.Suites = append(doc.Suites, s)
		}
	}
	return writeJUnit(w, doc)
}

// count counts the suite's testcases, failures and errors.
func (s *junitSuite) count() {
	s.junitCounts = junitCounts{Tests: len(s.Cases)}
	for _, c := range s.Cases {
		switch {
		case c.Error != nil:
			s.Errors++
		case c.Failure != nil:
			s.Failures++
		}
	}
}

// timestamp formats t, or now when t is zero, as Ant's schema wants it: a
// date and time in UTC, without a zone.
func timestamp(t time.Time) string {
	if t.IsZero() {
		t = time.Now()
	}
	return t.UTC().Format("2006-01-02T15:04:05")
}

// writeJUnit writes doc with the XML declaration.
func writeJUnit(w io.Writer, doc junitSuites) error {
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
func errorCases(p *i18n.Printer, g explain.Graded, pos string) []junitCase {
	res := g.Result
	kind := checker.ProblemInternal
	if res.Problem != nil {
		kind = res.Problem.Kind
	}
	// One submission's JUnit is read where the learner reads its
	// failures, which speak to the learner (see testCase): the reasons
	// are the teacher's, which send no one to kurs init, but the lines of
	// an API that differs are the learner's ("rename it to New"). A
	// class's JUnit speaks to the teacher throughout (see batchJUnit).
	aud := explain.Teacher
	if kind == checker.ProblemAPI {
		aud = explain.Learner
	}
	msg := textsafe.Text(p, explain.ProblemFor(p, res.Problem, aud, res.Exercise), textsafe.TestMax)
	var cases []junitCase
	for _, t := range g.Exercise.Suite.Tests {
		cases = append(cases, junitCase{
			Name: t.Name, Classname: res.Exercise,
			Error: &junitProblem{Message: errorMessage(p, kind, msg), Type: string(kind), Text: withPosition(pos, msg)},
		})
	}
	return cases
}

// testCase returns the testcase of a hidden test that ran (or should have):
// a failure names the step that failed, its text shows the trace after the
// learner's file and line, relative to the workspace, when the test
// panicked there or the program crashed during it.
func testCase(p *i18n.Printer, g explain.Graded, t *checker.Test) junitCase {
	c := junitCase{Name: t.Name, Classname: g.Result.Exercise}
	if t.Status == checker.Pass {
		return c
	}
	msg := textsafe.Text(p, explain.Test(p, g.Exercise, g.Result, t), textsafe.TestMax)
	// How it failed: the harness's kind of failure; for a test that sent
	// nothing, the document's word ("crash" while it ran, "not_run").
	kind := failure(t)
	if t.Failure != nil {
		kind = t.Failure.Kind
	}
	file, line := explain.TestPosition(g.Result, t)
	pos := ""
	if file != "" {
		pos = at(textsafe.Line(p, file, textsafe.ValueMax), line)
	}
	c.Failure = &junitProblem{Message: firstLine(p, departure(msg)), Type: kind, Text: withPosition(pos, msg)}
	return c
}

// departure returns a failing test's text from the line that names the
// step where the learner's code departed: without the header of a random
// trace ("Random trace no. 3 (seed 42), cut down from 81 steps to
// these:"), which says which trace, not what went wrong. It reads the
// text alone, in either language, so that a class's JUnit, made from the
// document, gives the same message.
func departure(msg string) string {
	first, rest, ok := strings.Cut(msg, "\n")
	if ok && randomHeader().MatchString(first) {
		return rest
	}
	return msg
}

// randomHeader matches the first line of a random trace's explanation
// (trace.random, trace.random_unshrunk) in every language kurs speaks.
var randomHeader = sync.OnceValue(func() *regexp.Regexp {
	const mark = "\x00"
	var alts []string
	for _, lang := range i18n.Languages {
		p := i18n.New(lang)
		for _, id := range []string{"trace.random", "trace.random_unshrunk"} {
			parts := strings.Split(p.T(id, "Index", mark, "Seed", mark, "Original", mark), mark)
			for i := range parts {
				parts[i] = regexp.QuoteMeta(parts[i])
			}
			alts = append(alts, strings.Join(parts, `[0-9]+`))
		}
	}
	return regexp.MustCompile(`^(?:` + strings.Join(alts, "|") + `)$`)
})

// seconds formats a duration as JUnit's time attribute wants it.
func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// errorMessage returns the message attribute of an error of kind whose
// text is msg: its first line, and for an API that differs, the lines
// under it, which name each function, method or variable that is missing
// or declared otherwise, first and joined on one line ("New is missing
// (…); method State of *CircuitBreaker is missing; the API differs from
// the exercise's"); for code that does not build, the compiler's first
// error ("The code does not build. First error: cb/cb.go:27:36: expected
// ';', found '{'"). A CI viewer shows the attribute alone, often cut
// short, so it leads with what the reader has to look for. It reads the
// text alone, so that a batch's document, which keeps the kind and the
// text, gives the same message.
func errorMessage(p *i18n.Printer, kind checker.ProblemKind, msg string) string {
	_, rest, _ := strings.Cut(msg, "\n")
	var names []string
	for l := range strings.SplitSeq(rest, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			names = append(names, missingShort(p, l))
		}
	}
	switch {
	case kind == checker.ProblemCompile:
		first := ""
		if len(names) > 0 {
			first = names[0]
		}
		return textsafe.Line(p, p.T("problem.compile_message", "First", first), textsafe.ValueMax)
	case kind != checker.ProblemAPI || len(names) == 0:
		return firstLine(p, msg)
	}
	return textsafe.Line(p, p.T("problem.api_message", "Names", strings.Join(names, "; ")), textsafe.ValueMax)
}

// missingShort returns an API line that says a name is missing
// (problem.api_undefined) without the explanation after the name, as a
// missing method is worded ("New is missing (you wrote Nwe …)"); any
// other line as it is. It finds the explanation by rendering the message
// itself, so it reads the lines of either language.
func missingShort(p *i18n.Printer, l string) string {
	const mark = "\x00"
	before, after, ok := strings.Cut(p.T("problem.api_undefined", "Name", mark), mark)
	if !ok || after == "" {
		return l
	}
	rest, ok := strings.CutPrefix(l, before)
	if !ok {
		return l
	}
	name, note, ok := strings.Cut(rest, after)
	if !ok || !token.IsIdentifier(name) {
		return l
	}
	return p.T("problem.api_missing", "Name", name) + note
}

// firstLine returns s up to its first line break, cut to
// textsafe.ValueMax; JUnit viewers show the message attribute on one line
// and the element's text below it.
func firstLine(p *i18n.Printer, s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return textsafe.Line(p, strings.TrimSuffix(s, ":"), textsafe.ValueMax)
}

// nameMisconception adds the line that names the misconception of a
// failing exercise to the text of its first failing testcase, where a CI's
// test report shows the first difference (see explain.Graded.Misconception).
func nameMisconception(p *i18n.Printer, g explain.Graded, cases []junitCase) {
	n := g.Misconception(p)
	if n == nil {
		return
	}
	for i := range cases {
		if f := cases[i].Failure; f != nil {
			f.Text += "\n" + n.Line
			return
		}
	}
}

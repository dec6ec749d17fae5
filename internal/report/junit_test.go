package report_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// fixtureSeed is the seed of the fixture's results; not the default, so
// that a format that prints a constant instead of the seed is caught.
const fixtureSeed = 7

// fixture returns results as the checker gives them for a submission with
// one exercise of each kind of verdict:
//   - circuitbreaker fails: its first failing test panics in the learner's
//     file at line 43 with a value holding Markdown and a percent sign,
//     the next one departs at step 4, and the code printed control
//     characters that XML cannot hold;
//   - tokenbucket does not build (status error);
//   - bulkheadquiz has case 1 right and case 2 wrong (1 of 2 points).
func fixture(t *testing.T) []explain.Graded {
	t.Helper()
	// Other exercises of the course, finished or not, are not these
	// tests' business.
	c, err := course.Load(os.DirFS("../.."))
	ex := func(id string) *course.Exercise {
		e, ok := c.Exercise(id)
		require.True(t, ok, "exercise %s: %v", id, err)
		return e
	}
	cb, tb, quiz := ex("circuitbreaker"), ex("tokenbucket"), ex("bulkheadquiz")

	cbRes := &checker.Result{Exercise: cb.ID, Status: checker.Fail, MaxScore: cb.Points, Seed: fixtureSeed,
		Duration: 420 * time.Millisecond, Output: "debug \x16=== RUN\x00 <b>&amp;</b>\n"}
	for i, st := range cb.Suite.Tests {
		tr := checker.Test{Name: st.Name, Status: checker.Pass}
		switch i {
		case 1:
			tr.Status = checker.Fail
			tr.Failure = &harness.Failure{Kind: harness.Panicked, New: []float64{3, 5}, Step: 1, Call: "Failure(0)",
				Panic: "100% broken, %0A stays text ```\n# not a heading", Frame: "github.com/kurs-course/kurs/circuitbreaker/circuitbreaker.go:43"}
		case 2:
			tr.Status = checker.Fail
			tr.Failure = &harness.Failure{Kind: harness.Mismatch, New: []float64{3, 5}, Observe: "State()",
				Done: []harness.Done{{Call: "Failure(0)", Got: harness.Result{Obs: "closed"}}, {Call: "Failure(1)", Got: harness.Result{Obs: "closed"}}, {Call: "Success()", Got: harness.Result{Obs: "closed"}}},
				Step: 4, Call: "Failure(2)", Want: harness.Result{Obs: "closed"}, Got: harness.Result{Obs: "open"}}
		}
		cbRes.Tests = append(cbRes.Tests, tr)
	}

	tbRes := &checker.Result{Exercise: tb.ID, Status: checker.Error, MaxScore: tb.Points, Seed: fixtureSeed,
		Duration: 180 * time.Millisecond,
		Problem: &checker.Problem{Kind: checker.ProblemCompile,
			Detail: "tokenbucket/tokenbucket.go:15:38: invalid operation: (now - b.last) * b.rate (mismatched types int and float64)"}}

	quizRes := &checker.Result{Exercise: quiz.ID, Status: checker.Fail, Score: 1, MaxScore: quiz.Points, Seed: fixtureSeed,
		Duration: 150 * time.Millisecond,
		Tests: []checker.Test{
			{Name: quiz.Suite.Tests[0].Name, Status: checker.Pass, Note: &harness.Failure{Kind: harness.Quiz, Pass: true, Case: 1, Given: "D"}},
			{Name: quiz.Suite.Tests[1].Name, Status: checker.Fail, Failure: &harness.Failure{Kind: harness.Quiz, Case: 2, Given: "D"}},
		}}
	return []explain.Graded{{Exercise: cb, Result: cbRes}, {Exercise: tb, Result: tbRes}, {Exercise: quiz, Result: quizRes}}
}

// The parts of JUnit XML that GitLab and Jenkins read.
type (
	xmlSuites struct {
		XMLName xml.Name   `xml:"testsuites"`
		Suites  []xmlSuite `xml:"testsuite"`
	}
	xmlSuite struct {
		Name       string    `xml:"name,attr"`
		Package    string    `xml:"package,attr"`
		Timestamp  string    `xml:"timestamp,attr"`
		Tests      int       `xml:"tests,attr"`
		Failures   int       `xml:"failures,attr"`
		Errors     int       `xml:"errors,attr"`
		Time       float64   `xml:"time,attr"`
		Properties []xmlProp `xml:"properties>property"`
		Cases      []xmlCase `xml:"testcase"`
		SystemOut  string    `xml:"system-out"`
	}
	xmlProp struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	xmlCase struct {
		Name      string      `xml:"name,attr"`
		Classname string      `xml:"classname,attr"`
		Time      *float64    `xml:"time,attr"`
		Failure   *xmlProblem `xml:"failure"`
		Error     *xmlProblem `xml:"error"`
	}
	xmlProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// fixtureRun is the run of the fixture: 3.1 s of wall-clock time, in a
// workspace in the folder ws of its repository.
var fixtureRun = report.Run{Course: "sha256:c0ffee", Kurs: "v1.2.0+0123456789ab", Seed: fixtureSeed, Elapsed: 3100 * time.Millisecond, Dir: "ws",
	Started: time.Date(2026, 12, 1, 21, 0, 0, 0, time.FixedZone("CET", 3600))}

// passes counts the testcases that neither fail nor err.
func passes(doc xmlSuites) int {
	n := 0
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Failure == nil && c.Error == nil {
				n++
			}
		}
	}
	return n
}

func junit(t *testing.T, lang string, graded []explain.Graded) xmlSuites {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, report.JUnit(&b, i18n.New(lang), graded, fixtureRun))
	var doc xmlSuites
	require.NoError(t, xml.Unmarshal(b.Bytes(), &doc), "not well-formed XML:\n%s", b.String())
	return doc
}

func TestJUnitCounts(t *testing.T) {
	graded := fixture(t)
	doc := junit(t, "en", graded)

	require.Len(t, doc.Suites, 3)
	cases, failures, errors := 0, 0, 0
	for i, s := range doc.Suites {
		ex := graded[i].Exercise
		assert.Equal(t, ex.ID, s.Name)
		assert.Len(t, s.Cases, len(ex.Suite.Tests), "%s: one testcase per hidden test", s.Name)
		f, e := 0, 0
		sum := 0.0
		for j, c := range s.Cases {
			assert.Equal(t, ex.Suite.Tests[j].Name, c.Name)
			if assert.NotNil(t, c.Time, "%s: every testcase has a time", c.Name) {
				sum += *c.Time
			}
			assert.Equal(t, ex.ID, c.Classname)
			if c.Failure != nil {
				f++
			}
			if c.Error != nil {
				e++
			}
			assert.False(t, c.Failure != nil && c.Error != nil, "%s: both failure and error", c.Name)
		}
		assert.InDelta(t, s.Time, sum, 0.001*float64(len(s.Cases)), "%s: the testcases share the suite's time", s.Name)
		assert.Equal(t, len(s.Cases), s.Tests, "%s: tests attribute", s.Name)
		assert.Equal(t, f, s.Failures, "%s: failures attribute", s.Name)
		assert.Equal(t, e, s.Errors, "%s: errors attribute", s.Name)
		cases, failures, errors = cases+len(s.Cases), failures+f, errors+e
	}
	assert.Equal(t, cases, failures+errors+passes(doc), "every testcase passes, fails or errs once")
	// circuitbreaker: 2 failures; tokenbucket: every test an error;
	// bulkheadquiz: case 2 fails.
	assert.Equal(t, []int{2, 0, 1}, []int{doc.Suites[0].Failures, doc.Suites[1].Failures, doc.Suites[2].Failures})
	assert.Equal(t, []int{0, len(graded[1].Exercise.Suite.Tests), 0}, []int{doc.Suites[0].Errors, doc.Suites[1].Errors, doc.Suites[2].Errors})
	assert.InDelta(t, 0.42, doc.Suites[0].Time, 0.0005)
	assert.Equal(t, "2026-12-01T20:00:00", doc.Suites[0].Timestamp, "the run's start, in UTC, without a zone")
}

func TestJUnitFailuresNameTheStep(t *testing.T) {
	graded := fixture(t)
	doc := junit(t, "en", graded)
	cb := doc.Suites[0]

	panicked := cb.Cases[1].Failure
	require.NotNil(t, panicked)
	assert.Equal(t, "panic", panicked.Type)
	assert.Contains(t, panicked.Message, "Step 1, Failure(0), panicked: 100% broken")
	assert.True(t, strings.HasPrefix(panicked.Text, "circuitbreaker/circuitbreaker.go:43\n"),
		"a panic points at the learner's file, relative to the workspace as in the document: %q", panicked.Text)
	cbProps := map[string]string{}
	for _, p := range cb.Properties {
		cbProps[p.Name] = p.Value
	}
	assert.Equal(t, "circuitbreaker/circuitbreaker.go", cbProps["file"])

	mismatch := cb.Cases[2].Failure
	require.NotNil(t, mismatch)
	assert.Equal(t, "mismatch", mismatch.Type)
	assert.Equal(t, "First difference at step 4, Failure(2)", mismatch.Message)
	assert.Contains(t, mismatch.Text, "Success()", "the text shows the trace up to the step")
	assert.Regexp(t, `expected: +State\(\) = "?closed"?\n`, mismatch.Text)
	assert.Regexp(t, `got: +State\(\) = "?open"?$`, mismatch.Text)
	assert.True(t, strings.HasPrefix(mismatch.Text, "First difference"), "a mismatch has no line to point at: %q", mismatch.Text)

	assert.Contains(t, cb.SystemOut, "debug", "the learner's output of a failing exercise")
	assert.Contains(t, cb.SystemOut, "<b>&amp;</b>", "markup in the output is text, not XML")

	for _, c := range doc.Suites[1].Cases {
		require.NotNil(t, c.Error, c.Name)
		assert.Equal(t, "compile", c.Error.Type)
		assert.Equal(t, "The code does not build. First error: tokenbucket/tokenbucket.go:15:38: invalid operation: (now - b.last) * b.rate (mismatched types int and float64)", c.Error.Message,
			"the message, which a CI viewer shows alone, has the compiler's first error")
		assert.Contains(t, c.Error.Text, "mismatched types int and float64")
		assert.True(t, strings.HasPrefix(c.Error.Text, "tokenbucket/tokenbucket.go:15\n"), c.Error.Text)
	}
	tbProps := map[string]string{}
	for _, p := range doc.Suites[1].Properties {
		tbProps[p.Name] = p.Value
	}
	assert.Equal(t, "tokenbucket/tokenbucket.go", tbProps["file"])
	assert.Equal(t, "15", tbProps["line"])

	quiz := doc.Suites[2]
	assert.Nil(t, quiz.Cases[0].Failure)
	require.NotNil(t, quiz.Cases[1].Failure)
	assert.Equal(t, "quiz", quiz.Cases[1].Failure.Type)
	assert.True(t, strings.HasPrefix(quiz.Cases[1].Failure.Message, "Case 2: D is not the best choice."), quiz.Cases[1].Failure.Message)

	for _, s := range doc.Suites {
		props := map[string]string{}
		for _, p := range s.Properties {
			props[p.Name] = p.Value
		}
		assert.Equal(t, "7", props["seed"], s.Name)
		assert.Equal(t, "sha256:c0ffee", props["course"], s.Name)
	}
	assert.Equal(t, []xmlProp{{"course", "sha256:c0ffee"}, {"kurs", "v1.2.0+0123456789ab"}, {"seed", "7"}, {"score", "1"}, {"max_score", "2"}}, quiz.Properties,
		"a wrong quiz answer has no file to point at")
}

func TestJUnitGerman(t *testing.T) {
	graded := fixture(t)
	de := junit(t, "de", graded).Suites[0].Cases[2].Failure
	en := junit(t, "en", graded).Suites[0].Cases[2].Failure
	assert.NotEqual(t, en.Message, de.Message)
	assert.Regexp(t, `^Erste .* Schritt 4, Failure\(2\)$`, de.Message)
	res := graded[0].Result
	assert.Equal(t, explain.Test(i18n.New("de"), graded[0].Exercise, res, &res.Tests[2]), de.Text)
	assert.Equal(t, "Der Code lässt sich nicht kompilieren. Erster Fehler: tokenbucket/tokenbucket.go:15:38: invalid operation: (now - b.last) * b.rate (mismatched types int and float64)",
		junit(t, "de", graded).Suites[1].Cases[0].Error.Message)
}

// A crash before the first test leaves every test missing in the result;
// JUnit shows each as one error, not as an error and a failure.
func TestJUnitCrashIsErrorOnly(t *testing.T) {
	graded := fixture(t)[:1]
	res := *graded[0].Result
	res.Status, res.Problem = checker.Error, &checker.Problem{Kind: checker.ProblemTimeout}
	res.Tests = nil
	for _, st := range graded[0].Exercise.Suite.Tests {
		res.Tests = append(res.Tests, checker.Test{Name: st.Name, Status: checker.Fail, Missing: true})
	}
	graded[0].Result = &res
	doc := junit(t, "en", graded)
	assert.Equal(t, len(res.Tests), doc.Suites[0].Tests)
	assert.Equal(t, len(res.Tests), doc.Suites[0].Errors)
	assert.Zero(t, doc.Suites[0].Failures)
	assert.Equal(t, "timeout", doc.Suites[0].Cases[0].Error.Type)
}

// apiDiffers returns the fixture's circuitbreaker as the API check
// leaves code whose State is a field and whose New is called Nwe.
func apiDiffers(t *testing.T) []explain.Graded {
	t.Helper()
	graded := fixture(t)[:1]
	res := *graded[0].Result
	res.Status, res.Tests, res.Output = checker.Error, nil, ""
	res.Problem = &checker.Problem{Kind: checker.ProblemAPI,
		Detail:     "(*CircuitBreaker).State undefined (type *CircuitBreaker has no field or method State, but does have field State)\nundefined: New",
		Declared:   []string{"Nwe", "CircuitBreaker"},
		DeclaredAt: map[string]string{"Nwe": "circuitbreaker/circuitbreaker.go:15"}}
	graded[0].Result = &res
	return graded
}

// TestJUnitAPINamesWhatIsMissing: a CI viewer shows an error's message
// attribute alone, so for an API that differs it names what is missing,
// bounded and on one line: for one submission in the learner's words, for
// a class in the teacher's, about the submission.
func TestJUnitAPINamesWhatIsMissing(t *testing.T) {
	for lang, want := range map[string][2]string{
		"en": {"method State of *CircuitBreaker is missing; New is missing (you wrote Nwe in circuitbreaker/circuitbreaker.go:15; rename it to New); the API differs from the exercise's",
			"method State of *CircuitBreaker is missing; New is missing (the submission declares Nwe in circuitbreaker/circuitbreaker.go:15; the exercise expects New); the API differs from the exercise's"},
		"de": {"Methode State von *CircuitBreaker fehlt; New fehlt (in circuitbreaker/circuitbreaker.go:15 steht Nwe; benenne es in New um); die API weicht von der Übung ab",
			"Methode State von *CircuitBreaker fehlt; New fehlt (die Abgabe deklariert Nwe in circuitbreaker/circuitbreaker.go:15; die Übung erwartet New); die API weicht von der Übung ab"},
	} {
		graded := apiDiffers(t)
		doc := junit(t, lang, graded)
		for _, c := range doc.Suites[0].Cases {
			require.NotNil(t, c.Error, c.Name)
			assert.Equal(t, "api", c.Error.Type)
			assert.Equal(t, want[0], c.Error.Message, "%s: what is missing first, a function worded as a method is", lang)
			assert.Equal(t, 2, strings.Count(c.Error.Text, "\n  "), "%s: the text keeps a line per name: %q", lang, c.Error.Text)
		}

		p := i18n.New(lang)
		b := &report.Batch{Version: report.Version, Course: "sha256:c0ffee", Kurs: "v1.2.0+0123456789ab", Seed: 7, ExerciseIDs: []string{"circuitbreaker"},
			Submissions: []report.Entry{{ID: "ada", Document: report.NewDocumentFor(p, graded, explain.Teacher)}}}
		var out bytes.Buffer
		require.NoError(t, report.BatchJUnit(&out, p, b, exercisesOf(graded)))
		var class xmlSuites
		require.NoError(t, xml.Unmarshal(out.Bytes(), &class), out.String())
		assert.Equal(t, want[1], class.Suites[0].Cases[0].Error.Message,
			"%s: a class's JUnit, made from the document alone, speaks about the submission", lang)
	}

	// However many names differ, the attribute stays one bounded line.
	graded := apiDiffers(t)
	var many []string
	for i := range 500 {
		many = append(many, fmt.Sprintf("undefined: Name%03d", i))
	}
	graded[0].Result.Problem.Detail = strings.Join(many, "\n")
	msg := junit(t, "en", graded).Suites[0].Cases[0].Error.Message
	assert.Contains(t, msg, "Name000 is missing")
	assert.NotContains(t, msg, "\n")
	assert.Less(t, len(msg), textsafe.ValueMax+200, "bounded")
}

// departedAndCrashed returns the fixture's circuitbreaker twice: failing
// a random trace at its fifth step, and crashed during its first test
// by a goroutine of the learner's that panicked in a helper file, with
// the crash report as the checker keeps it.
func departedAndCrashed(t *testing.T) (random, crashed []explain.Graded) {
	t.Helper()
	random = fixture(t)[:1]
	res := *random[0].Result
	res.Tests = slices.Clone(res.Tests)
	last := len(res.Tests) - 1
	res.Tests[last] = checker.Test{Name: res.Tests[last].Name, Status: checker.Fail, Failure: &harness.Failure{Kind: harness.Panicked,
		New: []float64{3, 6}, Done: []harness.Done{{Call: "Failure(31)"}, {Call: "Failure(32)"}, {Call: "Failure(32)"}, {Call: "Allow(39)"}},
		Step: 5, Call: "Failure(39)", Panic: "probe failed", Frame: "github.com/kurs-course/kurs/circuitbreaker/circuitbreaker.go:37",
		Seed: 42, Index: 2, Original: 81}}
	random[0].Result = &res

	crashed = fixture(t)[:1]
	cr := *crashed[0].Result
	cr.Crash = "panic: assignment to entry in nil map\n" +
		"circuitbreaker.explode.func1(…)\n\tcircuitbreaker/helper.go:9\n" +
		"created by github.com/kurs-course/kurs/circuitbreaker.explode in goroutine 7\n\tcircuitbreaker/helper.go:7"
	cr.Tests = nil
	for i, st := range crashed[0].Exercise.Suite.Tests {
		cr.Tests = append(cr.Tests, checker.Test{Name: st.Name, Status: checker.Fail, Crashed: i == 0, Missing: i > 0})
	}
	crashed[0].Result = &cr
	return random, crashed
}

// TestJUnitMessageNamesTheDeparture: a random trace's failure says in its
// message, which a CI viewer shows alone, the step where the code
// departed, as the learner's text does under the trace's header; in a
// class's JUnit, made from the document, too.
func TestJUnitMessageNamesTheDeparture(t *testing.T) {
	random, _ := departedAndCrashed(t)
	for lang, want := range map[string]string{
		"en": "Step 5, Failure(39), panicked: probe failed (at circuitbreaker/circuitbreaker.go:37)",
		"de": "Schritt 5, Failure(39), löste eine Panic aus: probe failed (bei circuitbreaker/circuitbreaker.go:37)",
	} {
		doc := junit(t, lang, random)
		cases := doc.Suites[0].Cases
		f := cases[len(cases)-1].Failure
		require.NotNil(t, f, lang)
		assert.Equal(t, want, f.Message, lang)
		assert.Regexp(t, `^circuitbreaker/circuitbreaker\.go:37\n(Random trace no\. 3 \(seed 42\)|Zufallsspur Nr\. 3 \(Startwert 42\)), `, f.Text,
			"%s: the text keeps which trace it was", lang)

		p := i18n.New(lang)
		b := &report.Batch{Version: report.Version, Course: "sha256:c0ffee", Kurs: "v1.2.0+0123456789ab", Seed: 7, ExerciseIDs: []string{"circuitbreaker"},
			Submissions: []report.Entry{{ID: "ada", Document: report.NewDocumentFor(p, random, explain.Teacher)}}}
		var out bytes.Buffer
		require.NoError(t, report.BatchJUnit(&out, p, b, exercisesOf(random)))
		var class xmlSuites
		require.NoError(t, xml.Unmarshal(out.Bytes(), &class), out.String())
		cases = class.Suites[0].Cases
		require.NotNil(t, cases[len(cases)-1].Failure, lang)
		assert.Equal(t, want, cases[len(cases)-1].Failure.Message, "%s: a class's JUnit says the same", lang)
		assert.Equal(t, f.Text, cases[len(cases)-1].Failure.Text, "%s: and starts its text with the same position", lang)
	}
}

// TestCrashPointsAtTheLearnersLine: a program that crashed during a test
// points, in JUnit, the document and GitHub's annotations, at the
// learner's innermost frame of the crash report: the line that panicked,
// not where its goroutine was started.
func TestCrashPointsAtTheLearnersLine(t *testing.T) {
	_, crashed := departedAndCrashed(t)
	file, line := explain.Position(crashed[0].Result)
	assert.Equal(t, "circuitbreaker/helper.go", file)
	assert.Equal(t, 9, line)

	doc := junit(t, "en", crashed)
	props := map[string]string{}
	for _, p := range doc.Suites[0].Properties {
		props[p.Name] = p.Value
	}
	assert.Equal(t, "circuitbreaker/helper.go", props["file"])
	assert.Equal(t, "9", props["line"])
	first := doc.Suites[0].Cases[0].Failure
	require.NotNil(t, first)
	assert.Equal(t, "crash", first.Type)
	assert.True(t, strings.HasPrefix(first.Text, "circuitbreaker/helper.go:9\n"), first.Text)
	assert.Equal(t, "not_run", doc.Suites[0].Cases[1].Failure.Type)

	d := report.NewDocument(i18n.New("de"), crashed)
	assert.Equal(t, "circuitbreaker/helper.go", d.Exercises[0].File)
	assert.Equal(t, 9, d.Exercises[0].Line)

	var gh bytes.Buffer
	require.NoError(t, report.GitHub(&gh, i18n.New("en"), crashed, "ws"))
	assert.Regexp(t, `(?m)^::error file=ws/circuitbreaker/helper\.go,line=9,`, gh.String())

	// A frame outside the exercise's folder is nobody's line to fix.
	crashed[0].Result.Crash = "panic: boom\nmain.main()\n\trun/main.go:12"
	file, _ = explain.Position(crashed[0].Result)
	assert.Empty(t, file)
}

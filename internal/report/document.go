package report

import (
	"encoding/json"
	"io"
	"math"
	"strings"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// Version is the version of the result document's schema.
const Version = 1

// Document is the result document of `kurs grade --format json`.
type Document struct {
	Version int `json:"version"`
	// Course is the content hash of the course that graded (see
	// grade.CourseHash); in a batch it is said once, in the Batch.
	Course string `json:"course,omitempty"`
	// Kurs names the kurs build that graded (see Run.Kurs); in a batch
	// it is said once, in the Batch.
	Kurs string `json:"kurs,omitempty"`
	// Seed is the seed of the random traces, which repeats them with
	// --seed; in a batch it is said once, in the Batch.
	Seed      uint64     `json:"seed,omitempty"`
	Status    string     `json:"status"`
	Score     int        `json:"score"`
	MaxScore  int        `json:"max_score"`
	Exercises []Exercise `json:"exercises"`
}

// Exercise is one exercise's entry in a Document.
type Exercise struct {
	ID       string     `json:"id"`
	Status   string     `json:"status"`
	Score    int        `json:"score"`
	MaxScore int        `json:"max_score"`
	Message  string     `json:"message"`
	Tests    []TestCase `json:"tests"`
	// Concurrency is how the stress tests of an exercise used from several
	// goroutines ran: "race+stress" or "stress" (see checker.Result).
	Concurrency string `json:"concurrency,omitempty"`
	// RaceSkipped says why the race detector did not run when
	// Concurrency is "stress": "failing", "no_cc", "platform", "build" or
	// "limit" (see checker.Result.RaceSkipped), so that a grader can tell
	// a submission that was checked without it.
	RaceSkipped string `json:"race_skipped,omitempty"`
	// Misconception names the mistake a failing exercise's code most
	// likely shows (see explain.Recognise); absent when none matches.
	Misconception *MisconceptionRef `json:"misconception,omitempty"`
	// Problem is why no test could run (checker.ProblemKind: "no_files",
	// "compile", …) when the status is error.
	Problem string `json:"problem,omitempty"`
	// Skeleton reports a failing exercise whose files are its unchanged
	// skeleton (see explain.Graded.Untouched): no attempt yet.
	Skeleton bool `json:"skeleton,omitempty"`
	// Unanswered reports a failing quiz with no case answered whose files
	// are not the skeleton: no attempt yet either. The document says so
	// because it alone does not tell a quiz, and the terminal's table of
	// a merged class is drawn without the course.
	Unanswered bool `json:"unanswered,omitempty"`
	// File and Line are where in the learner's files the result points
	// (see explain.Position): a compile error, a refused import, the misspelt
	// name the API check missed, the panic of the first failing test. File
	// is relative to the workspace or submission, slash-separated; both
	// are absent when the result points nowhere, Line when only a file is
	// known.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// MisconceptionRef names a misconception in a Document: its folder's name
// and its title in the document's language; Maybe marks a partial match.
type MisconceptionRef struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Maybe bool   `json:"maybe,omitempty"`
}

// TestCase is one hidden test's entry in a Document.
type TestCase struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	// Step is the 1-based step of a failing trace where the learner's code
	// departed (0: the constructor); nil when the test passed, or failed
	// without a trace (a quiz answer, a crash before the test reported).
	Step *int `json:"step,omitempty"`
	// Failure says how a failing test failed when its code did not just
	// answer otherwise: "panic", "timeout" (the time limit struck during
	// it), "crash" (the program died during it) or "not_run" (it died
	// before it). The class report groups by it.
	Failure string `json:"failure,omitempty"`
	Message string `json:"message"`
	// Given is the option a wrong quiz answer chose ("" for none given),
	// so the class report can count the wrong options.
	Given string `json:"given,omitempty"`
	// File and Line are where in the learner's files this failing test
	// stopped (see explain.TestPosition): the frame of its panic, or the
	// learner's innermost line when the program crashed during it; as the
	// exercise's, relative to the workspace or submission. A class's
	// JUnit puts them before the test's text, as one submission's does.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// Run is what the formats say about a grading run as a whole, and how
// they say it.
type Run struct {
	// Course is the content hash of the course that graded (see
	// grade.CourseHash): which hidden tests decided.
	Course string
	// Kurs names the kurs build that graded: its version and VCS
	// revision where the build recorded them, else a hash of its
	// executable (see docs/results.md). The course's hidden tests decide
	// the verdicts, kurs's code words the messages, so a result names
	// both.
	Kurs string
	// Seed is the seed of the random traces.
	Seed uint64
	// Elapsed is the run's wall-clock time, for the formats that ask for
	// the time of the whole run.
	Elapsed time.Duration
	// Started is when the run began, for the formats that ask for a
	// timestamp; zero means now.
	Started time.Time
	// Dir is the workspace's folder relative to the repository root,
	// slash-separated, so that GitHub's annotations point into the
	// repository (every other format names files from the workspace); ""
	// or "." when the workspace is the root, or when it lies outside any
	// repository.
	Dir string
	// Verbose asks the text format to explain every failing test, not
	// only the first.
	Verbose bool
	// Width is the terminal's width that the text format wraps its lines
	// to, as kurs check does; 0 leaves every line whole, for files and
	// pipes.
	Width int
}

// NewDocument builds the result document, with messages in p's language.
// Its status is pass when every exercise passes, error when no exercise
// could be tested at all (none built, or every one crashed before its first
// test), else fail; the caller names the course.
//
// Messages hold what the learner's code returned, panicked with and
// printed; they are escaped and cut (see package textsafe) so that an
// exercise's message stays within textsafe.MessageMax, a test's within
// textsafe.TestMax, and the tests of one exercise together within
// textsafe.MessageMax: a value of megabytes gives a document of kilobytes.
func NewDocument(p *i18n.Printer, graded []explain.Graded) *Document {
	return NewDocumentFor(p, graded, explain.Learner)
}

// NewDocumentFor is NewDocument with messages for aud: a batch's
// document, which the class report shows, speaks to the teacher.
func NewDocumentFor(p *i18n.Printer, graded []explain.Graded, aud explain.Audience) *Document {
	doc := &Document{Version: Version, Status: string(checker.Pass), Exercises: []Exercise{}}
	tested := false
	for _, g := range graded {
		res := g.Result
		e := Exercise{
			ID:       res.Exercise,
			Status:   string(res.Status),
			Score:    res.Score,
			MaxScore: res.MaxScore,
			Message:  textsafe.Text(p, explain.MessageFor(p, g, aud), textsafe.MessageMax),
			Tests:    []TestCase{},
		}
		e.Concurrency, e.RaceSkipped = res.Concurrency, res.RaceSkipped
		if file, line := explain.Position(res); file != "" {
			e.File, e.Line = textsafe.Line(p, file, textsafe.ValueMax), line
		}
		if res.Status == checker.Error && res.Problem != nil {
			e.Problem = string(res.Problem.Kind)
		}
		if res.Status == checker.Fail {
			// From the files, as kurs check decides what is begun: code
			// that behaves as the skeleton does (a bucket that starts
			// empty) is an attempt, with a misconception of its own, and
			// the class report counts only untouched skeletons apart, and
			// names no misconception for them: nobody has tried yet.
			e.Skeleton = g.Untouched
			if n := g.Misconception(p); n != nil {
				e.Misconception = &MisconceptionRef{ID: n.ID, Title: n.Title, Maybe: n.Maybe}
			}
		}
		budget := textsafe.MessageMax
		for i := range res.Tests {
			t := &res.Tests[i]
			msg := textsafe.Text(p, explain.TestFor(p, g.Exercise, res, t, aud), min(textsafe.TestMax, budget))
			budget = max(0, budget-len(msg))
			c := TestCase{Name: t.Name, Status: string(t.Status), Step: step(t), Failure: failure(t), Message: msg, Given: textsafe.Line(p, explain.Given(g.Exercise, t), textsafe.AnswerMax)}
			if file, line := explain.TestPosition(res, t); file != "" {
				c.File, c.Line = textsafe.Line(p, file, textsafe.ValueMax), line
			}
			e.Tests = append(e.Tests, c)
		}
		answers := g.Exercise != nil && g.Exercise.Traits().Answers
		e.Unanswered = answers && res.Status == checker.Fail && !g.Untouched && unanswered(&e)
		if res.Status != checker.Pass {
			doc.Status = string(checker.Fail)
		}
		if res.Status != checker.Error {
			tested = true
		}
		doc.Score += res.Score
		doc.MaxScore += res.MaxScore
		doc.Exercises = append(doc.Exercises, e)
	}
	if len(graded) > 0 && !tested {
		doc.Status = string(checker.Error)
	}
	return doc
}

// step returns the step of a failed test's trace where the learner's code
// departed, or nil when the test has no such step.
func step(t *checker.Test) *int {
	if t.Status == checker.Pass || t.Failure == nil {
		return nil
	}
	switch t.Failure.Kind {
	case harness.Mismatch, harness.Panicked, harness.Timeout:
		n := t.Failure.Step
		return &n
	}
	return nil
}

// failure returns how a failing test failed, for TestCase.Failure: ""
// when the learner's code answered otherwise, or for a passed test.
func failure(t *checker.Test) string {
	switch {
	case t.Status == checker.Pass:
		return ""
	case t.Crashed:
		return "crash"
	case t.Missing:
		return "not_run"
	case t.Failure != nil && (t.Failure.Kind == harness.Panicked || t.Failure.Kind == harness.Timeout):
		return t.Failure.Kind
	}
	return ""
}

// JSON writes doc as one indented JSON document.
func JSON(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// studentText returns what a student reads about one exercise where a grading
// platform shows one text per exercise (Gradescope): the explanation that
// kurs check shows, with advice a student without kurs can follow (see
// explain.Student), without colour, in at most limit bytes. What the code
// printed gives way first, with the note on how much of it was cut; only
// an explanation too long by itself is cut at its end.
func studentText(p *i18n.Printer, g explain.Graded, limit int) string {
	e := explain.Explain(p, g.Exercise, g.Result, explain.Options{Audience: explain.Student, Untouched: g.Untouched})
	// The advice comes last, after the note on concurrency.
	next := e.Next
	e.Next = ""
	render := func() string {
		s := strings.TrimRight(e.Text(p, explain.TextOptions{}), "\n")
		if c := explain.ConcurrencyFor(p, g.Result, explain.Student); c != "" {
			s += "\n  " + c
		}
		if next != "" {
			s += "\n  " + next
		}
		return s
	}
	// Room for the note on what was cut, which counts too.
	room := len(textsafe.Cut(p, math.MaxInt32))
	s := render()
	for n := min(len(g.Result.Output), textsafe.OutputMax); len(s) > limit-room && n > 1 && e.Output != ""; {
		// Lines of output are indented when shown, so the output takes
		// more in the text than its bytes: cut in proportion, and again
		// while still over, down to one byte and the note.
		n = max(1, min(n-1, n*(limit-room)/len(s)-room))
		e.Output = textsafe.Text(p, g.Result.Output, n)
		s = render()
	}
	return textsafe.Text(p, s, limit-room)
}

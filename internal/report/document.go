package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
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
	Course    string     `json:"course,omitempty"`
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
}

// TestCase is one hidden test's entry in a Document.
type TestCase struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	// Step is the 1-based step of a failing trace where the learner's code
	// departed (0: the constructor); nil when the test passed, or failed
	// without a trace (a quiz answer, a crash before the test reported).
	Step    *int   `json:"step,omitempty"`
	Message string `json:"message"`
}

// Run is what the formats say about a grading run as a whole, and how
// they say it.
type Run struct {
	// Course is the content hash of the course that graded (see
	// grade.CourseHash): which hidden tests decided.
	Course string
	// Seed is the seed of the random traces.
	Seed uint64
	// Elapsed is the run's wall-clock time, for the formats that ask for
	// the time of the whole run.
	Elapsed time.Duration
	// Dir is the workspace's folder relative to the repository root,
	// slash-separated, so that file names point into the repository; ""
	// or "." when the workspace is the root, or when it lies outside any
	// repository.
	Dir string
	// Verbose asks the text format to explain every failing test, not
	// only the first.
	Verbose bool
}

// Graded pairs an exercise with its result.
type Graded struct {
	Exercise *course.Exercise
	Result   *checker.Result
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
func NewDocument(p *i18n.Printer, graded []Graded) *Document {
	doc := &Document{Version: Version, Status: string(checker.Pass), Exercises: []Exercise{}}
	tested := false
	for _, g := range graded {
		res := g.Result
		e := Exercise{
			ID:       res.Exercise,
			Status:   string(res.Status),
			Score:    res.Score,
			MaxScore: res.MaxScore,
			Message:  textsafe.Text(p, Message(p, g.Exercise, res), textsafe.MessageMax),
			Tests:    []TestCase{},
		}
		e.Concurrency = res.Concurrency
		budget := textsafe.MessageMax
		for i := range res.Tests {
			t := &res.Tests[i]
			msg := textsafe.Text(p, Test(p, g.Exercise, res, t), min(textsafe.TestMax, budget))
			budget = max(0, budget-len(msg))
			e.Tests = append(e.Tests, TestCase{Name: t.Name, Status: string(t.Status), Step: step(t), Message: msg})
		}
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

// JSON writes doc as one indented JSON document.
func JSON(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// Text writes the results for people: each exercise's verdict, and for the
// ones that fail, what to look at.
func Text(w io.Writer, p *i18n.Printer, graded []Graded, verbose bool) error {
	var b strings.Builder
	score, maxScore, passed := 0, 0, 0
	for _, g := range graded {
		res := g.Result
		score += res.Score
		maxScore += res.MaxScore
		mark := "✗"
		if res.Status == checker.Pass {
			mark, passed = "✓", passed+1
		}
		fmt.Fprintf(&b, "%s %s — %s  (%s)\n", mark, res.Exercise, g.Exercise.Title.In(p.Lang()),
			p.T("result.points", "Score", res.Score, "Max", res.MaxScore))
		switch res.Status {
		case checker.Error:
			b.WriteString(indent(textsafe.Text(p, Problem(p, res.Problem), textsafe.MessageMax), "  ") + "\n")
		case checker.Fail:
			b.WriteString("  " + Summary(p, res) + "\n")
			first := res.FirstFailure()
			var others []string
			for i := range res.Tests {
				t := &res.Tests[i]
				switch {
				case t == first || t.Note != nil || verbose && t.Status != checker.Pass:
					fmt.Fprintf(&b, "  %s %s\n%s\n", p.T("test.name"), t.Name, indent(textsafe.Text(p, Test(p, g.Exercise, res, t), textsafe.TestMax), "    "))
				case t.Status != checker.Pass:
					others = append(others, t.Name)
				}
			}
			if len(others) > 0 {
				fmt.Fprintf(&b, "  %s\n%s\n", p.T("test.also_fails", "Count", len(others)), indent(wrap(strings.Join(others, ", "), 72), "    "))
			}
			if res.Output != "" {
				b.WriteString("  " + p.T("output.printed") + "\n" + indent(textsafe.Text(p, res.Output, textsafe.OutputMax), "  | ") + "\n")
				if res.Truncated {
					b.WriteString("  " + p.T("output.truncated") + "\n")
				}
			}
			b.WriteString("  " + p.T("result.next", "Exercise", res.Exercise) + "\n")
		case checker.Pass:
			for i := range res.Tests {
				if t := &res.Tests[i]; t.Note != nil {
					fmt.Fprintf(&b, "%s\n", indent(textsafe.Text(p, Test(p, g.Exercise, res, t), textsafe.TestMax), "  "))
				}
			}
		}
	}
	if len(graded) > 1 {
		fmt.Fprintf(&b, "\n%s\n", p.T("result.total", "Passed", passed, "Total", len(graded), "Score", score, "Max", maxScore))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// explain returns what a student reads about one exercise where a grading
// platform shows one text per exercise (Gradescope): the message, the
// other failing tests, and what the code printed.
func explain(p *i18n.Printer, g Graded) string {
	res := g.Result
	var b strings.Builder
	b.WriteString(textsafe.Text(p, Message(p, g.Exercise, res), textsafe.TestMax))
	if res.Status == checker.Fail {
		first := res.FirstFailure()
		var others []string
		for i := range res.Tests {
			if t := &res.Tests[i]; t.Status != checker.Pass && t != first {
				others = append(others, t.Name)
			}
		}
		if len(others) > 0 {
			b.WriteString("\n\n" + p.T("test.also_fails", "Count", len(others)) + "\n" + indent(wrap(strings.Join(others, ", "), 72), "  "))
		}
	}
	if res.Status != checker.Pass && res.Output != "" {
		b.WriteString("\n\n" + p.T("output.printed") + "\n" + indent(textsafe.Text(p, res.Output, textsafe.OutputMax), "| "))
		if res.Truncated {
			b.WriteString("\n" + p.T("output.truncated"))
		}
	}
	return b.String()
}

// wrap breaks s into lines of at most width runes at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 && n+1+len([]rune(w)) > width {
			b.WriteString("\n")
			n = 0
		} else if i > 0 {
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += len([]rune(w))
	}
	return b.String()
}

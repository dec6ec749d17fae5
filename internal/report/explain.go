// Package report turns checker results into what people and machines read:
// explanations in the learner's language, plain text, and the JSON result
// document.
package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// Summary returns one line on an exercise's result.
func Summary(p *i18n.Printer, res *checker.Result) string {
	switch res.Status {
	case checker.Pass:
		return p.T("result.pass", "Total", len(res.Tests))
	case checker.Error:
		return p.T("result.error")
	}
	failed := 0
	for _, t := range res.Tests {
		if t.Status != checker.Pass {
			failed++
		}
	}
	return p.T("result.fail", "Failed", failed, "Total", len(res.Tests))
}

// Message returns what the learner needs to act on an exercise's result:
// the problem that stopped it, or its first failing test explained (for a
// quiz, every case).
func Message(p *i18n.Printer, ex *course.Exercise, res *checker.Result) string {
	switch {
	case res.Status == checker.Error:
		return Problem(p, res.Problem)
	case res.Status == checker.Pass:
		return Summary(p, res)
	}
	e := Explain(p, ex, res, Options{})
	parts := []string{e.Summary}
	for i := range e.Tests {
		if t := &e.Tests[i]; t.Status != checker.Pass || e.Quiz {
			parts = append(parts, t.text(p, TextOptions{}))
		}
	}
	return strings.Join(parts, "\n")
}

// Problem explains why an exercise could not be tested.
func Problem(p *i18n.Printer, pr *checker.Problem) string {
	if pr == nil {
		return p.T("problem.unknown")
	}
	// The file name, import path or package name, compiler output and
	// crash text come from the learner's files or program.
	at := textsafe.Line(p, pr.File, textsafe.ValueMax)
	if pr.Line > 0 {
		at = fmt.Sprintf("%s:%d", at, pr.Line)
	}
	detail := textsafe.Line(p, pr.Detail, textsafe.ValueMax)
	switch pr.Kind {
	case checker.ProblemCompile, checker.ProblemAPI:
		return p.T("problem."+string(pr.Kind)) + "\n" + indent(textsafe.Text(p, pr.Detail, textsafe.BlockMax), "  ")
	case checker.ProblemImport:
		if !checker.Reaches(pr.Detail) {
			return p.T("problem.import_unneeded", "At", at, "Detail", detail, "Allowed", strings.Join(pr.Allowed, ", "))
		}
	case checker.ProblemCrash:
		if pr.Detail == "" {
			return p.T("problem.crash_silent")
		}
		return p.T("problem.crash") + "\n" + indent(textsafe.Text(p, pr.Detail, textsafe.BlockMax), "  ")
	}
	return p.T("problem."+string(pr.Kind), "At", at, "Detail", detail)
}

// Test explains one test's outcome; for a failed trace it shows the trace
// up to the first difference. It is the text of ExplainTest.
func Test(p *i18n.Printer, ex *course.Exercise, res *checker.Result, t *checker.Test) string {
	return ExplainTest(p, ex, res, t).text(p, TextOptions{})
}

// value is goValue for a value from the learner's code: at most
// textsafe.ValueMax bytes of it as Go writes it, with control characters
// escaped, and the note on what was cut.
func value(p *i18n.Printer, s string) string {
	head, cut := textsafe.Prefix(s, textsafe.ValueMax)
	v := goValue(head)
	for len(v) > textsafe.ValueMax+len(`""`) && head != "" {
		// Quoting makes escapes longer: cut once more, in proportion.
		var more int
		head, more = textsafe.Prefix(head, len(head)*textsafe.ValueMax/len(v))
		cut += more
		v = goValue(head)
	}
	return textsafe.EscapeLine(v) + textsafe.Cut(p, cut)
}

func goValue(s string) string {
	if s == "true" || s == "false" || strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		return s // booleans, and slices as fmt prints them
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return strconv.Quote(s)
}

func quizWhy(p *i18n.Printer, ex *course.Exercise, f *harness.Failure) string {
	for _, c := range ex.Quiz {
		if c.Case == f.Case {
			if t, ok := c.Options[f.Given]; ok {
				return t.In(p.Lang())
			}
		}
	}
	return ""
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

func crashText(p *i18n.Printer, crash string) string {
	if crash == "" {
		return p.T("test.crash_silent")
	}
	return textsafe.Text(p, crash, textsafe.BlockMax)
}

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

// modulePrefix is how panicking frames name the learner's files; the
// learner knows them relative to the workspace.
const modulePrefix = "github.com/kurs-course/kurs/"

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
// the problem that stopped it, or its first failing test explained.
func Message(p *i18n.Printer, ex *course.Exercise, res *checker.Result) string {
	switch {
	case res.Status == checker.Error:
		return Problem(p, res.Problem)
	case res.Status == checker.Pass:
		return Summary(p, res)
	}
	if t := res.FirstFailure(); t != nil {
		return Summary(p, res) + "\n" + Test(p, ex, res, t)
	}
	return Summary(p, res)
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
// up to the first difference.
func Test(p *i18n.Printer, ex *course.Exercise, res *checker.Result, t *checker.Test) string {
	if t.Status == checker.Pass {
		if t.Note != nil && t.Note.Kind == harness.Quiz {
			return p.T("quiz.right", "Case", t.Note.Case, "Why", quizWhy(p, ex, t.Note))
		}
		return p.T("test.pass")
	}
	if t.Missing {
		switch {
		case t.Crashed && res.Killed:
			return p.T("test.crashed_killed")
		case t.Crashed:
			return p.T("test.crashed") + "\n" + indent(crashText(p, res.Crash), "  ")
		case res.Killed:
			return p.T("test.missing_killed")
		case res.Crash != "":
			return p.T("test.missing_crash") + "\n" + indent(textsafe.Text(p, res.Crash, textsafe.BlockMax), "  ")
		}
		return p.T("test.missing")
	}
	f := t.Failure
	if f == nil {
		return p.T("test.missing")
	}
	var b strings.Builder
	switch {
	case f.Original > 0:
		b.WriteString(p.T("trace.random", "Index", f.Index+1, "Seed", f.Seed, "Original", f.Original))
		b.WriteString("\n")
	case f.Seed != 0:
		b.WriteString(p.T("trace.random_unshrunk", "Index", f.Index+1, "Seed", f.Seed))
		b.WriteString("\n")
	}
	switch f.Kind {
	case harness.Quiz:
		if f.Given == "" {
			return p.T("quiz.empty", "Case", f.Case)
		}
		given := textsafe.Line(p, f.Given, textsafe.ValueMax)
		if why := quizWhy(p, ex, f); why != "" {
			return p.T("quiz.wrong", "Case", f.Case, "Given", given, "Why", why)
		}
		return p.T("quiz.unknown", "Case", f.Case, "Given", given)
	case harness.Mismatch:
		if f.Step == 0 {
			b.WriteString(p.T("trace.first_new", "Call", f.Call))
		} else {
			b.WriteString(p.T("trace.first", "Step", f.Step, "Call", f.Call))
		}
	case harness.Panicked:
		b.WriteString(p.T("trace.panic", "Step", f.Step, "Call", f.Call, "Value", textsafe.Line(p, f.Panic, textsafe.ValueMax),
			"Frame", textsafe.Line(p, strings.TrimPrefix(f.Frame, modulePrefix), textsafe.ValueMax)))
	case harness.Timeout:
		b.WriteString(p.T("trace.timeout", "Step", f.Step, "Call", f.Call))
	}
	b.WriteString("\n")
	b.WriteString(traceTable(p, f))
	return strings.TrimRight(b.String(), "\n")
}

// traceTable shows the steps before the failure and the failing one, with
// what was expected and what came back.
func traceTable(p *i18n.Printer, f *harness.Failure) string {
	type row struct{ n, call, got, mark string }
	rows := []row{{"", harness.FormatCall("New", f.New), "", ""}}
	for i, d := range f.Done {
		rows = append(rows, row{fmt.Sprint(i + 1), d.Call, result(p, f.Observe, d.Got), ""})
	}
	switch f.Kind {
	case harness.Mismatch:
		if f.Step == 0 {
			rows[0].got = result(p, f.Observe, f.Got)
			rows[0].mark = "✗"
		} else {
			rows = append(rows, row{fmt.Sprint(f.Step), f.Call, result(p, f.Observe, f.Got), "✗"})
		}
	case harness.Panicked:
		rows = append(rows, row{fmt.Sprint(f.Step), f.Call, "panic", "✗"})
	case harness.Timeout:
		rows = append(rows, row{fmt.Sprint(f.Step), f.Call, "…", "✗"})
	}
	if f.Step == 0 && f.Kind != harness.Mismatch {
		rows = rows[:1]
		rows[0].mark = "✗"
	}
	wn, wc := 1, 1
	for _, r := range rows {
		wn, wc = max(wn, len(r.n)), max(wc, len([]rune(r.call)))
	}
	var b strings.Builder
	for _, r := range rows {
		mark := " "
		if r.mark != "" {
			mark = r.mark
		}
		line := fmt.Sprintf("  %s %*s  %-*s", mark, wn, r.n, wc, r.call)
		if r.got != "" {
			line += "  → " + r.got
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if f.Kind == harness.Mismatch {
		pad := strings.Repeat(" ", 4+wn)
		fmt.Fprintf(&b, "%s%s %s\n", pad, p.T("trace.want"), result(p, f.Observe, f.Want))
		fmt.Fprintf(&b, "%s%s %s\n", pad, p.T("trace.got"), result(p, f.Observe, f.Got))
	}
	return b.String()
}

// result formats what a call returned and what was observed after it, as
// Go values: strings quoted, numbers and booleans bare.
func result(p *i18n.Printer, observe string, r harness.Result) string {
	o := observe + " = " + value(p, r.Obs)
	if observe == "" {
		o = value(p, r.Obs)
	}
	if r.Ret != "" {
		return value(p, r.Ret) + ", " + o
	}
	return o
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

package report

import (
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// GitHub writes the results as GitHub Actions workflow commands: an ::error
// annotation for each exercise that does not pass, pointing at the learner's
// file and line where one is known (a refused import, a compile error, the
// frame of a panic), and a ::notice with the total. dir is the workspace's
// folder relative to the repository root, slash-separated, so that GitHub
// finds the files; "" or "." when the workspace is the root.
//
// GitHub shows at most ten error annotations per step and drops the rest;
// kurs writes one per exercise, with the first failing test explained, for
// the first ten exercises that do not pass, and names the others in one
// more ::notice. A message holds at most textsafe.TestMax bytes before
// escaping, far below GitHub's 64 KB; what the learner's code returned,
// panicked with or printed, and file names, are escaped and cut (see
// package textsafe).
func GitHub(w io.Writer, p *i18n.Printer, graded []explain.Graded, dir string) error {
	var b strings.Builder
	score, maxScore, passed := 0, 0, 0
	errors, more := 0, []string(nil)
	for _, g := range graded {
		res := g.Result
		score += res.Score
		maxScore += res.MaxScore
		if res.Status == checker.Pass {
			passed++
			continue
		}
		if errors == maxErrors {
			more = append(more, res.Exercise)
			continue
		}
		errors++
		var props []string
		if file, line := explain.Position(res); file != "" {
			props = append(props, "file="+property(path.Join(dir, fileProperty(p, file))))
			if line > 0 {
				props = append(props, "line="+strconv.Itoa(line))
			}
		}
		title := fmt.Sprintf("%s: %s (%s)", res.Exercise, explain.SummaryFor(p, g.Exercise, res), p.T("result.points", "Score", res.Score, "Max", res.MaxScore))
		props = append(props, "title="+property(textsafe.EscapeLine(title)))
		msg := textsafe.Text(p, explain.MessageFor(p, g, explain.Teacher), textsafe.TestMax)
		fmt.Fprintf(&b, "::error %s::%s\n", strings.Join(props, ","), data(msg))
	}
	if len(more) > 0 {
		fmt.Fprintf(&b, "::notice title=kurs::%s\n", data(p.T("grade.github_more", "Count", len(more), "Exercises", strings.Join(more, ", "))))
	}
	total := p.T("result.total", "Count", len(graded), "Passed", passed, "Total", len(graded), "Score", score, "Max", maxScore)
	fmt.Fprintf(&b, "::notice title=kurs::%s\n", data(total))
	_, err := io.WriteString(w, b.String())
	return err
}

// GitHubSummary writes the results as Markdown for the job summary
// ($GITHUB_STEP_SUMMARY): a table of the exercises and, for each one that
// does not pass, its message in a collapsed section. The seed of the
// random traces is shown so that a run can be repeated, and the course's
// content hash so that a teacher knows which hidden tests graded.
//
// GitHub takes a summary of up to 1 MiB per step. Each message is escaped
// and cut to textsafe.TestMax (see package textsafe), and all of them
// together to summaryMessages, which leaves room for the table of a course
// of hundreds of exercises.
func GitHubSummary(w io.Writer, p *i18n.Printer, graded []explain.Graded, run Run) error {
	var b strings.Builder
	score, maxScore, passed := 0, 0, 0
	for _, g := range graded {
		score += g.Result.Score
		maxScore += g.Result.MaxScore
		if g.Result.Status == checker.Pass {
			passed++
		}
	}
	fmt.Fprintf(&b, "### kurs: %s\n\n", cell(p.T("result.total", "Count", len(graded), "Passed", passed, "Total", len(graded), "Score", score, "Max", maxScore)))
	fmt.Fprintf(&b, "| | %s | %s | %s |\n|---|---|---|---|\n", p.T("grade.col_exercise"), p.T("grade.col_points"), p.T("grade.col_result"))
	for _, g := range graded {
		res := g.Result
		mark := "❌"
		if res.Status == checker.Pass {
			mark = "✅"
		}
		fmt.Fprintf(&b, "| %s | `%s` %s | %d/%d | %s |\n", mark, res.Exercise, cell(g.Exercise.Title.In(p.Lang())), res.Score, res.MaxScore, cell(explain.SummaryFor(p, g.Exercise, res)))
	}
	budget := summaryMessages
	for _, g := range graded {
		if g.Result.Status == checker.Pass {
			continue
		}
		msg := textsafe.Text(p, explain.MessageFor(p, g, explain.Teacher), min(textsafe.TestMax, budget))
		budget = max(0, budget-len(msg))
		fence := codeFence(msg)
		fmt.Fprintf(&b, "\n<details><summary><code>%s</code></summary>\n\n%stext\n%s\n%s\n\n</details>\n", g.Result.Exercise, fence, msg, fence)
	}
	if seed := seedLine(p, graded, run.Seed); seed != "" {
		fmt.Fprintf(&b, "\n%s\n", cell(seed))
	}
	fmt.Fprintf(&b, "\n%s\n", cell(gradedBy(p, run.Course, run.Kurs)))
	_, err := io.WriteString(w, b.String())
	return err
}

// maxErrors is how many error annotations GitHub shows per step.
const maxErrors = 10

// summaryMessages bounds the bytes of all messages in a job summary
// together; GitHub takes up to 1 MiB.
const summaryMessages = 768 << 10

// data escapes the message of a workflow command, as the Actions toolkit
// does: a message may span lines, a command may not.
func data(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// fileProperty makes a file name safe for an annotation's file=: a line
// break stays one, which property writes as %0A, so that GitHub finds the
// file; other control characters are shown as escapes, as textsafe does,
// and a name longer than textsafe.ValueMax is cut.
func fileProperty(p *i18n.Printer, file string) string {
	if len(file) > textsafe.ValueMax {
		return textsafe.Line(p, file, textsafe.ValueMax)
	}
	return keepBreaks(file)
}

// property escapes a property value of a workflow command, which also must
// not hold the separators : and ,.
func property(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// cell makes text safe for one cell of a Markdown table: no line breaks, no
// column separators, no HTML.
func cell(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ", "|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}

// codeFence returns a backtick fence longer than any run of backticks in s,
// so that text from the learner's code (a panic value, compiler output)
// cannot end the code block and be read as Markdown.
func codeFence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

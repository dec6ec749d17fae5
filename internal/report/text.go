package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/termdoc"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// TextOptions say how the text of explanations is written.
type TextOptions struct {
	Verbose bool // explain every failing test, not only the first
	// Color dims the steps after a departure and marks the values that
	// differ, with ANSI escapes: for a terminal only.
	Color bool
	// Width, when not 0, renders the Markdown of a quiz's feedback and
	// wraps it to that many columns, as the lesson is, and wraps kurs's
	// own long lines (the verdict, the reasons, the tests' titles) under
	// where they began: for a terminal only. 0 leaves every line as it
	// is, for files and pipes.
	Width int
}

// ANSI escapes of the text in a terminal.
const (
	ansiDim   = "\x1b[2m"
	ansiBad   = "\x1b[1;31m"
	ansiReset = "\x1b[0m"
)

// Style marks as strings, for the renderers below.
const (
	markBad = string(textsafe.MarkBad)
	markDim = string(textsafe.MarkDim)
	markEnd = string(textsafe.MarkEnd)
)

// Paint replaces the style marks in s, which the renderers write after
// the learner's text in it was neutralised, with ANSI escapes when color
// is set, and drops them otherwise. Styling never outlives its line, so a
// cut or indented text cannot leave a terminal coloured.
func Paint(s string, color bool) string {
	if !strings.ContainsFunc(s, isMark) {
		return s
	}
	var b strings.Builder
	open := false
	for _, r := range s {
		switch {
		case r == textsafe.MarkBad || r == textsafe.MarkDim:
			if color {
				if open {
					b.WriteString(ansiReset)
				}
				b.WriteString(map[rune]string{textsafe.MarkBad: ansiBad, textsafe.MarkDim: ansiDim}[r])
			}
			open = true
		case r == textsafe.MarkEnd:
			if color && open {
				b.WriteString(ansiReset)
			}
			open = false
		case r == '\n' && open:
			if color {
				b.WriteString(ansiReset)
			}
			open = false
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	if color && open {
		b.WriteString(ansiReset)
	}
	return b.String()
}

func isMark(r rune) bool {
	return r == textsafe.MarkBad || r == textsafe.MarkDim || r == textsafe.MarkEnd
}

// WriteText writes the results for people, as kurs check shows them: each
// exercise's verdict and, for one that fails, what to look at.
func WriteText(w io.Writer, p *i18n.Printer, graded []Graded, opt TextOptions) error {
	var b strings.Builder
	score, maxScore, passed := 0, 0, 0
	for _, g := range graded {
		e := Explain(p, g.Exercise, g.Result, Options{Verbose: opt.Verbose, Untouched: g.Untouched})
		score += e.Score
		maxScore += e.MaxScore
		if e.Status == checker.Pass {
			passed++
		}
		b.WriteString(e.marked(p, opt))
		if c := Concurrency(p, g.Result); c != "" {
			b.WriteString("  " + c + "\n")
		}
	}
	if len(graded) > 1 {
		fmt.Fprintf(&b, "\n%s\n", p.T("result.total", "Count", len(graded), "Passed", passed, "Total", len(graded), "Score", score, "Max", maxScore))
	}
	_, err := io.WriteString(w, Paint(b.String(), opt.Color))
	return err
}

// Text renders the explanation as kurs check shows it.
func (e *Explanation) Text(p *i18n.Printer, opt TextOptions) string {
	return Paint(e.marked(p, opt), opt.Color)
}

// marked is Text with style marks where Text styles.
func (e *Explanation) marked(p *i18n.Printer, opt TextOptions) string {
	var b strings.Builder
	mark := "✗"
	if e.Status == checker.Pass {
		mark = "✓"
	}
	b.WriteString(hanging("", fmt.Sprintf("%s %s — %s  (%s)", mark, e.Exercise, e.Title, e.Points), opt.Width))
	switch e.Status {
	case checker.Error:
		// The reason, and the compiler's or the API check's lines under
		// it, each wrapped under its own start.
		for l := range strings.Lines(strings.TrimRight(e.Problem, "\n")) {
			l = strings.TrimSuffix(l, "\n")
			rest := strings.TrimLeft(l, " ")
			b.WriteString(hanging("  "+l[:len(l)-len(rest)], rest, opt.Width))
		}
		return b.String()
	case checker.Fail:
		b.WriteString(hanging("  ", e.Summary, opt.Width))
		if e.Scoring != "" {
			b.WriteString(hanging("  ", e.Scoring, opt.Width))
		}
	}
	for i := range e.Tests {
		t := &e.Tests[i]
		switch {
		case e.Quiz && t.Trace == nil:
			m := "✗"
			if t.Status == checker.Pass {
				m = "✓"
			}
			b.WriteString(indent(m+" "+wrapped(t.text(p, opt), opt.Width-4), "  ") + "\n")
		case t.Status == checker.Pass:
			b.WriteString(indent(t.text(p, opt), "  ") + "\n")
		default:
			b.WriteString(hanging("  ", t.Heading, opt.Width) + indent(t.text(p, opt), "    ") + "\n")
		}
	}
	if m := e.Misconception; m != nil {
		// Where the code departs, then why: the belief that explains it.
		b.WriteString(hanging("  ", m.Line, opt.Width))
		if m.Explanation != "" {
			b.WriteString(indent(m.Explanation, "    ") + "\n")
		}
	}
	// One test a line: a title is a phrase of its own.
	for _, list := range []struct {
		key   string
		tests []string
	}{{"test.also_fails", e.Others}, {"test.not_run", e.NotRun}} {
		if len(list.tests) == 0 {
			continue
		}
		b.WriteString(hanging("  ", p.T(list.key, "Count", len(list.tests)), opt.Width))
		for _, t := range list.tests {
			b.WriteString(hanging("    ", t, opt.Width))
		}
	}
	if e.Output != "" {
		b.WriteString("  " + e.OutputTitle + "\n" + indent(e.Output, "  | ") + "\n")
		if e.OutputCut {
			b.WriteString("  " + p.T("output.truncated") + "\n")
		}
	}
	if e.Next != "" {
		b.WriteString(hanging("  ", e.Next, opt.Width))
	}
	return b.String()
}

// hanging writes s, one line of kurs's own words, after lead and, in a
// terminal (width > 0), wrapped to width with its further lines two
// columns in from where it began (see wrapHanging).
func hanging(lead, s string, width int) string {
	return strings.Join(wrapHanging(s, lead, lead+"  ", width), "\n") + "\n"
}

// wrapHanging breaks s, one line of kurs's own words, into lines of at
// most width columns, the first after first and the others after rest, so
// that a long line does not fold under the margin. In a pipe (width not
// positive) it stays one line, for grep; so it does where fewer than 20
// columns would be left for words.
func wrapHanging(s, first, rest string, width int) []string {
	room := width - max(termdoc.Width(first), termdoc.Width(rest))
	if width <= 0 || termdoc.Width(first)+termdoc.Width(s) <= width || room < 20 {
		return []string{first + s}
	}
	lines := termdoc.Wrap(s, room)
	for i := range lines {
		if i == 0 {
			lines[i] = first + lines[i]
		} else {
			lines[i] = rest + lines[i]
		}
	}
	return lines
}

// text renders one test's explanation, bounded to textsafe.TestMax.
func (t *TestExplanation) text(p *i18n.Printer, opt TextOptions) string {
	var b strings.Builder
	if t.Random != "" {
		b.WriteString(t.Random + "\n")
	}
	b.WriteString(t.Headline + "\n")
	if t.Detail != "" {
		b.WriteString(indent(t.Detail, "  ") + "\n")
	}
	if t.Trace != nil {
		b.WriteString(t.Trace.text(p, opt))
	}
	// Every learner-controlled part was neutralised where it entered the
	// explanation; this bounds the whole and keeps kurs's own marks.
	return textsafe.Marked(p, strings.TrimRight(b.String(), "\n"), textsafe.TestMax)
}

// text renders a trace as a table: the step's number, the call and what
// came back; under the step that departed, what was expected and what
// came back; then the steps the test would have made next.
func (tr *Trace) text(p *i18n.Printer, opt TextOptions) string {
	type line struct{ mark, n, call, got string }
	var lines []line
	var failing *Row
	var after []line
	for i := range tr.Rows {
		r := &tr.Rows[i]
		l := line{n: fmt.Sprint(r.N), call: r.Call}
		if r.Kind == RowNew || r.Kind == RowFailing && r.N == 0 {
			l.n = ""
		}
		switch r.Kind {
		case RowNew, RowStep:
			l.got = tr.side(r, false, false)
		case RowFailing:
			failing, l.mark = r, "✗"
			switch {
			case r.Panicked:
				l.got = "panic"
			case r.TimedOut:
				l.got = "…"
			default:
				l.got = tr.side(r, false, false)
			}
			if l.call == "" {
				l.call = "?"
			}
		case RowElided:
			l = line{n: "⋮", call: p.T("trace.elided", "Count", r.Elided)}
		case RowAfter:
			after = append(after, line{mark: "·", n: l.n, call: r.Call})
			continue
		}
		lines = append(lines, l)
	}
	wn, wc := 1, 1
	for _, l := range append(lines[:len(lines):len(lines)], after...) {
		wn, wc = max(wn, len([]rune(l.n))), max(wc, len([]rune(l.call)))
	}
	format := func(l line) string {
		mark := " "
		if l.mark != "" {
			mark = l.mark
		}
		s := fmt.Sprintf("  %s %*s  %-*s", mark, wn, l.n, wc, l.call)
		if l.got != "" {
			s += "  → " + l.got
		}
		return strings.TrimRight(s, " ")
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(format(l) + "\n")
	}
	if failing != nil && !failing.Panicked && !failing.TimedOut {
		pad := strings.Repeat(" ", 4+wn)
		fmt.Fprintf(&b, "%s%s %s\n", pad, p.T("trace.want"), tr.side(failing, true, false))
		fmt.Fprintf(&b, "%s%s %s\n", pad, p.T("trace.got"), tr.side(failing, false, opt.Color))
	}
	for i, l := range after {
		s := format(l)
		if i == 0 {
			s += "   " + p.T("trace.after")
		}
		b.WriteString(markDim + s + markEnd + "\n")
	}
	return b.String()
}

// side writes the returned value and the observations of a row, the
// expected ones or those that came back: `true, State() = "open"`. With
// color, the values that differ stand out.
func (tr *Trace) side(r *Row, want, color bool) string {
	pick := func(c Cell) string {
		v := c.Got
		if want {
			v = c.Want
		}
		if color && c.Differs && v != "" {
			v = markBad + v + markEnd
		}
		return v
	}
	var parts []string
	if v := pick(r.Ret); tr.Returns && v != "" {
		parts = append(parts, v)
	}
	for i, c := range r.Obs {
		v := pick(c)
		if v == "" {
			continue
		}
		if i < len(tr.Observe) && tr.Observe[i] != "" {
			v = tr.Observe[i] + " = " + v
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, ", ")
}

// Message returns what the learner needs to act on an exercise's result:
// the problem that stopped it, or its first failing test explained (for a
// quiz, every case).
func Message(p *i18n.Printer, ex *course.Exercise, res *checker.Result) string {
	return message(p, ex, res, Options{})
}

// message is Message with opt, which says whether the files were the
// skeleton.
func message(p *i18n.Printer, ex *course.Exercise, res *checker.Result, opt Options) string {
	switch {
	case res.Status == checker.Error:
		return Problem(p, res.Problem)
	case res.Status == checker.Pass:
		return Summary(p, res)
	}
	e := Explain(p, ex, res, opt)
	parts := []string{e.Summary}
	for i := range e.Tests {
		if t := &e.Tests[i]; t.Status != checker.Pass || e.Quiz {
			parts = append(parts, Paint(t.text(p, TextOptions{}), false))
		}
	}
	parts = append(parts, e.Races...)
	if e.Misconception != nil {
		parts = append(parts, e.Misconception.Line)
	}
	return strings.Join(parts, "\n")
}

// Test explains one test's outcome; for a failed trace it shows the trace
// up to the first difference. It is the text of ExplainTest.
func Test(p *i18n.Printer, ex *course.Exercise, res *checker.Result, t *checker.Test) string {
	return testFor(p, ex, res, t, Learner)
}

// testFor is Test in the words for aud (see explainTest).
func testFor(p *i18n.Printer, ex *course.Exercise, res *checker.Result, t *checker.Test, aud Audience) string {
	return Paint(explainTest(p, ex, res, t, aud).text(p, TextOptions{}), false)
}

// wrapped renders s, Markdown, as the terminal shows a lesson's text, in
// lines of at most width columns, each after the first indented by two
// spaces (under the text after a mark); s as it is when width is not
// positive.
func wrapped(s string, width int) string {
	if width <= 0 {
		return s
	}
	lines, _ := termdoc.Lines([]byte(s), termdoc.Options{Width: width - 2})
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n  ")
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

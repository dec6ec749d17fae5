package cli

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/term"
	"github.com/kurs-course/kurs/internal/termdoc"
	"github.com/kurs-course/kurs/internal/textsafe"
	"github.com/kurs-course/kurs/internal/try"
)

// tryOptions are the options of kurs try.
type tryOptions struct {
	timeout time.Duration // how long each program may take for the trace
}

func tryVerb() *verb {
	return command("try", func(o *tryOptions, fs *flag.FlagSet) {
		fs.DurationVar(&o.timeout, "timeout", checker.DefaultTimeout, "")
	}, runTry)
}

// runTry runs a trace the learner wrote on the learner's code and on the
// reference (package try), and shows both answers step by step.
func runTry(e *env, o *tryOptions, args []string) error {
	return tryTrace(e, o, args)
}

func tryTrace(e *env, o *tryOptions, args []string) error {
	if len(args) != 2 {
		return e.usageErr("error.try_args")
	}
	ws, _, exs, err := e.open(args[:1])
	if err != nil {
		return err
	}
	ex := exs[0]
	if !try.Supported(ex) {
		return e.usageErr("error.try_kind", "Exercise", ex.ID)
	}
	tr, err := try.Parse(args[1], try.APIOf(ex))
	if errors.Is(err, try.ErrEmpty) {
		return e.usageErr("error.try_empty", "Exercise", ex.ID, "Example", try.ShortExample(ex))
	}
	var se *try.SyntaxError
	if errors.As(err, &se) {
		msg := e.p.T("error.try_syntax", "Col", se.Col, "Err", se.Message(e.p))
		return &usageError{msg + "\n" + strings.Join(traceMark(e.p, args[1], se.Col, e.stderr().TextWidth()), "\n")}
	}
	mine, err := try.Files(ws, ex)
	if err != nil {
		return err
	}
	e.sayErr("try.running", "Exercise", ex.ID)
	c, err := try.Run(e.ctx, &checker.Checker{Build: e.builder()}, ex, mine, tr, o.timeout)
	if err != nil {
		return err
	}
	if c.Problem != nil {
		return &failedError{explain.Problem(e.p, c.Problem)}
	}
	e.showTry(ex, c)
	if c.First >= 0 {
		return errFailed
	}
	return nil
}

// traceMark returns the lines that show the trace s with a caret under
// its character at col (1-based, counted in characters, as
// try.SyntaxError counts), each line indented by two spaces. A pipe
// (width 0) gets the trace on one line, for grep. On a terminal width
// columns wide the trace breaks at its spaces into lines that leave room
// for a caret after their end, and the caret goes under the line that
// holds the mistake, the lines after it below. The trace is shown with
// control characters escaped, each run of spaces as one, and, when it is
// longer than textsafe.ValueMax, only the part around the mistake.
func traceMark(p *i18n.Printer, s string, col, width int) []string {
	off := len(s)
	for i := range s {
		if col--; col == 0 {
			off = i
			break
		}
	}
	shown, at := textsafe.EscapeLine(s), len(textsafe.EscapeLine(s[:off]))
	// A long trace (up to try.MaxSteps calls) is shown from a space
	// before the mistake to one after it, with what was left out said.
	lead, tail := "", ""
	if len(shown) > textsafe.ValueMax {
		from := max(0, at-textsafe.ValueMax/2)
		if i := strings.IndexByte(shown[from:at], ' '); i >= 0 && from > 0 {
			from += i + 1
		}
		for from < at && !utf8.RuneStart(shown[from]) {
			from++
		}
		to := len(shown)
		if end, cut := textsafe.Prefix(shown[from:], textsafe.ValueMax); cut > 0 {
			to = from + len(end)
			if i := strings.LastIndexByte(shown[at:to], ' '); i >= 0 {
				to = at + i
			}
			tail = " " + textsafe.Cut(p, len(shown)-to)
		}
		if from > 0 {
			lead = "… "
		}
		shown, at = shown[from:to], at-from
	}
	// The caret's place in the trace as shown: the words before it joined
	// by single spaces, and the start of its own word.
	text := lead + strings.Join(term.Words(shown), " ") + tail
	caret := len(lead) + len(strings.Join(term.Words(shown[:at]+"x"), " ")) - 1
	lines := []string{text}
	if width > 0 && 2+term.Width(text)+2 > width {
		lines = term.Wrap(text, width-4)
	}
	var out []string
	start, marked := 0, false
	for i, l := range lines {
		start += strings.Index(text[start:], l)
		end := start + len(l)
		out = append(out, "  "+l)
		if !marked && (caret < end || i == len(lines)-1) {
			c := max(0, caret-start)
			// A mistake at the end, after spaces, is marked a column
			// after the trace.
			out = append(out, "  "+strings.Repeat(" ", term.Width(l[:min(c, len(l))])+min(max(0, c-len(l)), 1))+"^")
			marked = true
		}
		start = end
	}
	return out
}

// showTry writes the trace with both programs' answers, the steps where
// they differ marked: side by side in a table, or, on a terminal too
// narrow for the table, one block per step with each answer under the
// call (see stepBlocks), by term.TableFits's rule. A pipe always gets the
// table, each row whole.
func (e *env) showTry(ex *course.Exercise, c *try.Comparison) {
	p, t := e.p, e.stdout()
	rows := []tryRow{{mark: " ", n: p.T("try.col_step"), call: p.T("try.col_call"), mine: p.T("try.col_mine"), ref: p.T("try.col_ref")}}
	for _, r := range c.Rows {
		v := tryRow{mark: " ", call: r.Call, mine: r.Mine.Text(p, c.Observe), ref: r.Ref.Text(p, c.Observe)}
		if r.Step > 0 {
			v.n = strconv.Itoa(r.Step)
		}
		if r.Differs {
			v.mark = "✗"
		}
		rows = append(rows, v)
	}
	var b strings.Builder
	b.WriteString(t.Fit(p.T("try.header", "Exercise", ex.ID, "Title", ex.Title.In(p.Lang()))) + "\n\n")
	width := 0
	if t.IsTerminal() {
		width = t.Width()
	}
	steps := stepTable(rows)
	if !term.TableFits(steps, width) {
		steps = stepBlocks(rows, width)
	}
	b.WriteString(strings.Join(steps, "\n") + "\n")
	b.WriteString("\n" + t.Fit(c.Summary(p)) + "\n")
	fmt.Fprint(e.Out, trimLines(b.String()))
}

// A tryRow is one line of kurs try's table as shown: the mark of a step
// whose answers differ, the step's number, the call, and both answers.
// The first row is the table's head.
type tryRow struct{ mark, n, call, mine, ref string }

// stepTable lays rows out as a table, its columns as wide as their
// widest cell.
func stepTable(rows []tryRow) []string {
	var wn, wc, wm int
	for _, r := range rows {
		wn, wc, wm = max(wn, termdoc.Width(r.n)), max(wc, termdoc.Width(r.call)), max(wm, termdoc.Width(r.mine))
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.mark+" "+strings.Join([]string{padLeft(r.n, wn), padRight(r.call, wc), padRight(r.mine, wm), r.ref}, term.ColumnGap))
	}
	return out
}

// stepBlocks lays rows out for a terminal width columns wide that the
// table does not fit: each step's number and call on a line, as in the
// table, and under the call each answer after its column's name, wrapped
// under its own start. The head's names label the answers.
//
//	✗ 3  Failure(2)
//	       your code  State() = "closed"
//	       reference  State() = "open"
func stepBlocks(rows []tryRow, width int) []string {
	head, steps := rows[0], rows[1:]
	var wn int
	for _, r := range steps {
		wn = max(wn, termdoc.Width(r.n))
	}
	wl := max(termdoc.Width(head.mine), termdoc.Width(head.ref))
	indent := strings.Repeat(" ", 2+wn+2+2)
	var out []string
	for _, r := range steps {
		out = append(out, fmt.Sprintf("%s %s  %s", r.mark, padLeft(r.n, wn), r.call))
		for _, a := range [][2]string{{head.mine, r.mine}, {head.ref, r.ref}} {
			first := indent + padRight(a[0], wl) + "  "
			out = append(out, explain.WrapHanging(a[1], first, strings.Repeat(" ", termdoc.Width(first)), width)...)
		}
	}
	return out
}

// padLeft and padRight pad s with spaces to w columns.
func padLeft(s string, w int) string  { return strings.Repeat(" ", max(0, w-termdoc.Width(s))) + s }
func padRight(s string, w int) string { return s + strings.Repeat(" ", max(0, w-termdoc.Width(s))) }

// trimLines removes the spaces at the ends of lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

package cli

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
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
	var se *try.SyntaxError
	if errors.As(err, &se) {
		return e.usageErr("error.try_syntax", "Col", se.Col, "Err", se.Message(e.p),
			"Trace", textsafe.Line(e.p, args[1], textsafe.ValueMax), "Mark", strings.Repeat(" ", se.Col-1)+"^")
	}
	mine, err := try.Files(ws, ex)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.Err, e.p.T("try.running", "Exercise", ex.ID))
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

// showTry writes the trace with both programs' answers side by side, the
// rows where they differ marked.
func (e *env) showTry(ex *course.Exercise, c *try.Comparison) {
	p := e.p
	type row struct{ mark, n, call, mine, ref string }
	rows := []row{{mark: " ", n: p.T("try.col_step"), call: p.T("try.col_call"), mine: p.T("try.col_mine"), ref: p.T("try.col_ref")}}
	for _, r := range c.Rows {
		v := row{mark: " ", call: r.Call, mine: r.Mine.Text(p, c.Observe), ref: r.Ref.Text(p, c.Observe)}
		if r.Step > 0 {
			v.n = strconv.Itoa(r.Step)
		}
		if r.Differs {
			v.mark = "✗"
		}
		rows = append(rows, v)
	}
	var wn, wc, wm int
	for _, r := range rows {
		wn, wc, wm = max(wn, termdoc.Width(r.n)), max(wc, termdoc.Width(r.call)), max(wm, termdoc.Width(r.mine))
	}
	pad := func(s string, w int) string { return s + strings.Repeat(" ", max(0, w-termdoc.Width(s))) }
	var b strings.Builder
	b.WriteString(p.T("try.header", "Exercise", ex.ID, "Title", ex.Title.In(p.Lang())) + "\n\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s %s  %s  %s  %s\n", r.mark, strings.Repeat(" ", wn-termdoc.Width(r.n))+r.n, pad(r.call, wc), pad(r.mine, wm), r.ref)
	}
	b.WriteString("\n" + c.Summary(p) + "\n")
	fmt.Fprint(e.Out, trimLines(b.String()))
}

// trimLines removes the spaces at the ends of lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

package cli

import (
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/termdoc"
	"github.com/kurs-course/kurs/internal/textsafe"
	"github.com/kurs-course/kurs/internal/workspace"
)

// maxTrySteps bounds a trace typed by hand.
const maxTrySteps = 200

// tryOptions are the options of kurs try.
type tryOptions struct {
	timeout time.Duration // how long each program may take for the trace
}

func tryVerb() *verb {
	return command("try", func(o *tryOptions, fs *flag.FlagSet) {
		fs.DurationVar(&o.timeout, "timeout", checker.DefaultTimeout, "")
	}, try)
}

// try runs a trace the learner wrote on the learner's code and on the
// reference, and shows both answers step by step. The reference's code is
// never shown; its behaviour on the trace is.
func try(e *env, o *tryOptions, args []string) error {
	if len(args) != 2 {
		return e.usageErr("error.try_args")
	}
	ws, _, exs, err := e.open(args[:1])
	if err != nil {
		return err
	}
	ex := exs[0]
	if ex.Kind() != course.KindTrace {
		return e.usageErr("error.try_kind", "Exercise", ex.ID)
	}
	api := callsOf(ex)
	tr, perr := parseTrace(args[1], api)
	if perr != nil {
		return e.usageErr("error.try_syntax", "Col", perr.col, "Err", e.p.T(perr.id, perr.kv...),
			"Trace", textsafe.Line(e.p, args[1], textsafe.ValueMax), "Mark", strings.Repeat(" ", perr.col-1)+"^")
	}
	var mine []course.File
	names, err := ws.Sources(ex.ID)
	if err != nil {
		return err
	}
	for _, n := range names {
		data, err := workspace.ReadFileMax(ws.Dir+"/"+n, workspace.MaxBackupFile)
		if err != nil {
			return err
		}
		mine = append(mine, course.File{Name: path.Base(n), Data: data})
	}
	if len(mine) == 0 {
		return &failedError{report.Problem(e.p, &checker.Problem{Kind: checker.ProblemNoFiles})}
	}
	ref, err := ex.Solution()
	if err != nil {
		return err
	}
	fmt.Fprintln(e.Err, e.p.T("try.running", "Exercise", ex.ID))
	// The first build in a fresh cache compiles the standard library, for
	// which a build of learner code has too little time: Warm does it
	// within the course's own limit (and costs little once done).
	if err := (&checker.Checker{}).Warm(e.ctx, []*course.Exercise{ex}); err != nil {
		return err
	}
	var runs [2]tried
	var wg sync.WaitGroup
	for i, files := range [][]course.File{mine, ref} {
		wg.Go(func() { runs[i] = runTrace(e.ctx, ex, files, tr, o.timeout) })
	}
	wg.Wait()
	if e.ctx.Err() != nil {
		return e.ctx.Err()
	}
	if runs[1].err != nil || runs[1].problem != nil {
		// The reference always builds and answers; if not, kurs is broken.
		err := runs[1].err
		if err == nil {
			err = fmt.Errorf("%s", report.Problem(e.p, runs[1].problem))
		}
		return fmt.Errorf("%s: %w", ex.ID, err)
	}
	if runs[0].problem != nil {
		return &failedError{report.Problem(e.p, runs[0].problem)}
	}
	differs := e.showTry(ex, tr, observeOf(ex), runs[0], runs[1])
	if differs {
		return errFailed
	}
	return nil
}

// tried is what one program did on the trace.
type tried struct {
	reply   harness.Reply
	stopped bool // the program stopped answering (a crash, the time limit)
	problem *checker.Problem
	err     error
}

// runTrace builds a test program with files as the exercise's package and
// runs the trace on it, within timeout once it has started.
func runTrace(ctx context.Context, ex *course.Exercise, files []course.File, tr harness.Trace, timeout time.Duration) tried {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s, p, err := (&checker.Checker{}).Serve(ctx, ex, files)
	if err != nil || p != nil {
		return tried{problem: p, err: err}
	}
	defer s.Close()
	// The program is killed when ctx ends, which ends Run.
	stop := time.AfterFunc(timeout, cancel)
	defer stop.Stop()
	var t tried
	err = s.Run([]harness.Trace{tr}, func(_ int, r harness.Reply) bool {
		t.reply = r
		return true
	})
	if err != nil {
		t.stopped = true
		t.reply, _ = partial(s.Learner)
	}
	return t
}

// partial returns what arrived of the running trace before the program
// stopped answering.
func partial(l *harness.Learner) (harness.Reply, bool) {
	_, rep, ok := l.Where()
	return rep, ok
}

// showTry writes the trace with both programs' answers side by side and
// reports whether they differ anywhere.
func (e *env) showTry(ex *course.Exercise, tr harness.Trace, observe string, mine, ref tried) bool {
	p := e.p
	type row struct{ mark, n, call, mine, ref string }
	answer := func(t tried, i int, reference bool) (string, *harness.Result) {
		switch r := t.reply; {
		case i < len(r.Results):
			return report.Side(p, observe, r.Results[i]), &r.Results[i]
		case r.Panicked && r.PanicStep == i:
			if reference {
				return p.T("try.panic", "Value", textsafe.Line(p, r.Panic, textsafe.ValueMax)), nil
			}
			return p.T("try.panic_at", "Value", textsafe.Line(p, r.Panic, textsafe.ValueMax),
				"Frame", textsafe.Line(p, report.Frame(r.Frame), textsafe.ValueMax)), nil
		case t.stopped && i == len(r.Results) && !r.Panicked:
			return p.T("try.stopped"), nil
		}
		return "", nil
	}
	rows := []row{{n: p.T("try.col_step"), call: p.T("try.col_call"), mine: p.T("try.col_mine"), ref: p.T("try.col_ref")}}
	first := -1
	for i := 0; i <= len(tr.Steps); i++ {
		call := harness.FormatCall("New", tr.New)
		n := ""
		if i > 0 {
			call, n = harness.FormatCall(tr.Steps[i-1].Call, tr.Steps[i-1].Args), strconv.Itoa(i)
		}
		m, mr := answer(mine, i, false)
		r, rr := answer(ref, i, true)
		if m == "" && r == "" {
			break
		}
		same := false
		switch {
		case mr != nil && rr != nil:
			same = report.SameResult(*mr, *rr)
		case mr == nil && rr == nil:
			// Both panicked (or stopped) here: alike when with the same value.
			same = mine.reply.Panicked == ref.reply.Panicked && mine.reply.Panic == ref.reply.Panic
		}
		mark := ""
		if !same {
			mark = "✗"
			if first < 0 {
				first = i
			}
		}
		rows = append(rows, row{mark, n, call, m, r})
	}
	var wn, wc, wm int
	for _, r := range rows {
		wn, wc, wm = max(wn, termdoc.Width(r.n)), max(wc, termdoc.Width(r.call)), max(wm, termdoc.Width(r.mine))
	}
	pad := func(s string, w int) string { return s + strings.Repeat(" ", max(0, w-termdoc.Width(s))) }
	var b strings.Builder
	b.WriteString(p.T("try.header", "Exercise", ex.ID, "Title", ex.Title.In(p.Lang())) + "\n\n")
	for _, r := range rows {
		mark := " "
		if r.mark != "" {
			mark = r.mark
		}
		fmt.Fprintf(&b, "%s %s  %s  %s  %s", mark, strings.Repeat(" ", wn-termdoc.Width(r.n))+r.n, pad(r.call, wc), pad(r.mine, wm), r.ref)
		b.WriteString("\n")
	}
	b.WriteString("\n")
	switch {
	case first == 0:
		b.WriteString(p.T("try.differ_new") + "\n")
	case first > 0:
		b.WriteString(p.T("try.differ", "Step", first) + "\n")
	default:
		b.WriteString(p.T("try.same") + "\n")
	}
	fmt.Fprint(e.Out, trimLines(b.String()))
	return first >= 0
}

// trimLines removes the spaces at the ends of lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// api is what a trace of an exercise may call: each method's names with
// the numbers of arguments it takes, as the exercise's hidden tests call
// them, and the numbers of arguments of New.
type api struct {
	calls map[string][]int
	news  []int
}

// callsOf learns an exercise's calls from its hidden tests.
func callsOf(ex *course.Exercise) api {
	a := api{calls: map[string][]int{}}
	for _, t := range ex.Suite.Tests {
		if t.Random > 0 || t.Case > 0 {
			continue
		}
		if !slices.Contains(a.news, len(t.New)) {
			a.news = append(a.news, len(t.New))
		}
		for _, s := range t.Steps {
			if !slices.Contains(a.calls[s.Call], len(s.Args)) {
				a.calls[s.Call] = append(a.calls[s.Call], len(s.Args))
			}
		}
	}
	slices.Sort(a.news)
	for _, n := range a.calls {
		slices.Sort(n)
	}
	return a
}

// names returns the calls' names, sorted.
func (a api) names() string {
	var out []string
	for n := range a.calls {
		out = append(out, n)
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// traceError is a mistake in a trace: where (a 1-based column) and the
// message that says what.
type traceError struct {
	col int
	id  string
	kv  []any
}

// parseTrace parses a trace such as "New(3, 5) Failure(0) Allow(6)":
// calls separated by spaces, New first, each with numbers as arguments,
// strictly as the exercise's API has them.
func parseTrace(s string, a api) (harness.Trace, *traceError) {
	var tr harness.Trace
	i := 0
	col := func(i int) int { return utf8.RuneCountInString(s[:i]) + 1 }
	fail := func(i int, id string, kv ...any) (harness.Trace, *traceError) {
		return harness.Trace{}, &traceError{col(i), id, kv}
	}
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
	}
	for first := true; ; first = false {
		skip()
		if i == len(s) {
			if first {
				return fail(i, "try.err_new")
			}
			return tr, nil
		}
		start := i
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.') {
				break
			}
			i += size
		}
		name := s[start:i]
		if name == "" {
			if first {
				return fail(start, "try.err_new")
			}
			return fail(start, "try.err_call_expected")
		}
		if first != (name == "New") {
			if first {
				return fail(start, "try.err_new")
			}
			return fail(start, "try.err_new_again")
		}
		if !first {
			if _, ok := a.calls[name]; !ok {
				return fail(start, "try.err_unknown", "Call", name, "Known", a.names())
			}
			if len(tr.Steps) == maxTrySteps {
				return fail(start, "try.err_long", "Max", maxTrySteps)
			}
		}
		if i == len(s) || s[i] != '(' {
			return fail(i, "try.err_expected", "Want", "(")
		}
		i++
		var args []float64
		for {
			skip()
			if i < len(s) && s[i] == ')' && len(args) == 0 {
				break
			}
			numStart := i
			for i < len(s) && strings.IndexByte("+-0123456789.eE", s[i]) >= 0 {
				i++
			}
			text := s[numStart:i]
			x, err := strconv.ParseFloat(text, 64)
			if text == "" {
				return fail(numStart, "try.err_expected", "Want", p2(len(args) == 0))
			}
			if err != nil || math.IsInf(x, 0) {
				return fail(numStart, "try.err_number", "Text", text)
			}
			args = append(args, x)
			skip()
			if i < len(s) && s[i] == ',' {
				i++
				continue
			}
			if i < len(s) && s[i] == ')' {
				break
			}
			return fail(i, "try.err_expected", "Want", ", )")
		}
		i++ // the ")"
		want := a.news
		if !first {
			want = a.calls[name]
		}
		if len(want) > 0 && !slices.Contains(want, len(args)) {
			return fail(start, "try.err_arity", "Call", name, "Want", arities(want), "Got", len(args))
		}
		if first {
			tr.New = args
		} else {
			tr.Steps = append(tr.Steps, harness.Step{Call: name, Args: args})
		}
		if i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
			return fail(i, "try.err_expected", "Want", "␠")
		}
	}
}

// p2 names what may come after "(": a number, or also ")".
func p2(empty bool) string {
	if empty {
		return "0-9 )"
	}
	return "0-9"
}

// arities writes the numbers of arguments a call takes: "2" or "1 or 2".
func arities(n []int) string {
	s := make([]string, len(n))
	for i, x := range n {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " | ")
}

// observeOf returns what the exercise's driver observes after each call,
// e.g. "State()": as its suite says for a generated driver, else from the
// driver's source, the Observe of its harness.Traces.
func observeOf(ex *course.Exercise) string {
	if ex.Suite.Observe != "" {
		return ex.Suite.Observe
	}
	driver, _, err := ex.Tests()
	if err != nil {
		return ""
	}
	fset := token.NewFileSet()
	observe := ""
	for _, f := range driver {
		file, err := parser.ParseFile(fset, f.Name, f.Data, 0)
		if err != nil {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok || observe != "" {
				return observe == ""
			}
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Observe" {
				if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					observe, _ = strconv.Unquote(lit.Value)
				}
			}
			return true
		})
	}
	return observe
}

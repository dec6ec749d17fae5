package explain

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/term"
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
	// Full shows every step of a trace; without it a long trace shows the
	// steps around the departure (see Trace.Around).
	Full bool
}

// Style marks as strings, for the renderers below.
const (
	markBad = string(textsafe.MarkBad)
	markDim = string(textsafe.MarkDim)
	markEnd = string(textsafe.MarkEnd)
)

// paint replaces the style marks in s, which the renderers write after
// the learner's text in it was neutralised, with ANSI escapes when color
// is set, and drops them otherwise. Styling never outlives its line, so a
// cut or indented text cannot leave a terminal coloured; a styled value
// that wrapping broke across lines is styled again on the next line,
// from its first character after the indentation.
func paint(s string, color bool) string {
	if !strings.ContainsFunc(s, isMark) {
		return s
	}
	var b strings.Builder
	var open, reopen rune // the style in effect; the one a line break cut
	on := func(r rune) {
		if color {
			b.WriteString(map[rune]string{textsafe.MarkBad: term.Bad, textsafe.MarkDim: term.Dim}[r])
		}
		open = r
	}
	off := func() {
		if color && open != 0 {
			b.WriteString(term.Reset)
		}
		open = 0
	}
	for _, r := range s {
		switch {
		case r == textsafe.MarkBad || r == textsafe.MarkDim:
			off()
			on(r)
			reopen = 0
		case r == textsafe.MarkEnd:
			off()
			reopen = 0
		case r == '\n':
			if open != 0 {
				reopen = open
			}
			off()
			b.WriteRune(r)
		default:
			if reopen != 0 && r != ' ' {
				on(reopen)
				reopen = 0
			}
			b.WriteRune(r)
		}
	}
	off()
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
		if c := concurrency(p, g.Result); c != "" {
			b.WriteString(hanging("  ", c, opt.Width))
		}
	}
	if len(graded) > 1 {
		fmt.Fprintf(&b, "\n%s\n", p.T("result.total", "Count", len(graded), "Passed", passed, "Total", len(graded), "Score", score, "Max", maxScore))
	}
	_, err := io.WriteString(w, paint(b.String(), opt.Color))
	return err
}

// Text renders the explanation as kurs check shows it.
func (e *Explanation) Text(p *i18n.Printer, opt TextOptions) string {
	return paint(e.marked(p, opt), opt.Color)
}

// marked is Text with style marks where Text styles.
func (e *Explanation) marked(p *i18n.Printer, opt TextOptions) string {
	var b strings.Builder
	mark := "✗"
	if e.Status == checker.Pass {
		mark = "✓"
	}
	// The score is one unit, "0/4 points": a line that ends in "(0/4"
	// reads as a number without its meaning.
	points := strings.ReplaceAll(e.Points, " ", keptSpace)
	b.WriteString(unkeep(hanging("", fmt.Sprintf("%s %s — %s  (%s)", mark, e.Exercise, e.Title, points), opt.Width)))
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
	// A test's text is indented: it gets the columns left of the width.
	in := func(n int) TextOptions {
		o := opt
		if o.Width > 0 {
			o.Width = max(o.Width-n, 20)
		}
		return o
	}
	for i := range e.Tests {
		t := &e.Tests[i]
		switch {
		case e.Quiz && t.Trace == nil:
			m := "✗"
			if t.Status == checker.Pass {
				m = "✓"
			}
			b.WriteString(indent(m+" "+wrapped(t.text(p, TextOptions{Color: opt.Color}), opt.Width-4), "  ") + "\n")
		case t.Status == checker.Pass:
			b.WriteString(indent(t.text(p, in(2)), "  ") + "\n")
		default:
			b.WriteString(hanging("  ", t.Heading, opt.Width) + indent(t.text(p, in(4)), "    ") + "\n")
		}
	}
	// The races, one line each, as every other format says them: the
	// detector's reports under the output are long, and these name the
	// learner's two functions and lines first.
	for _, r := range e.Races {
		b.WriteString(hanging("  ", r, opt.Width))
	}
	if m := e.Misconception; m != nil {
		// Where the code departs, then why: the belief that explains it.
		b.WriteString(hanging("  ", m.Line, opt.Width))
		if m.Explanation != "" {
			b.WriteString(explanation(m.Explanation, opt) + "\n")
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
		out, omitted := distinctRaces(e.Output)
		b.WriteString("  " + e.OutputTitle + "\n" + indent(out, "  | ") + "\n")
		if omitted > 0 {
			b.WriteString(hanging("  ", p.T("output.races_omitted", "Count", omitted), opt.Width))
		}
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
	return strings.Join(WrapHanging(s, lead, lead+"  ", width), "\n") + "\n"
}

// WrapHanging breaks s, one line of kurs's own words, into lines of at
// most width columns, the first after first and the others after rest, so
// that a long line does not fold under the margin. In a pipe (width not
// positive) it stays one line, for grep; so it does where fewer than 20
// columns would be left for words. A path with its line ("FILE:LINE:")
// is never broken, so that an editor can follow it (see
// wrapKeepingPaths).
func WrapHanging(s, first, rest string, width int) []string {
	room := width - max(term.Width(first), term.Width(rest))
	if width <= 0 || term.Width(first)+term.Width(s) <= width || room < 20 {
		return []string{first + s}
	}
	lines := wrapKeepingPaths(s, room)
	for i := range lines {
		if i == 0 {
			lines[i] = first + lines[i]
		} else {
			lines[i] = rest + lines[i]
		}
	}
	return lines
}

// pathWord matches a word that names a file, perhaps with its line and
// with punctuation around it ("suite.json:12:",
// "(exercises/counter/solution/counter.go:21)"), or a folder as the
// place of a problem ("exercises/counter/misconceptions/NAME:"); not a
// test's id ("edge/wait-boundary"), which may go on after a hyphen.
// Compiled on first use.
var pathWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[(\[„“"']*[\w.@+-]*(?:/[\w.@+-]+)*\.[A-Za-z]\w*(?::\d+)*[)\]“”"',.;:]*|[\w.@+-]+(?:/[\w.@+-]+)+/?:(?:\d+:)?)$`)
})

// Stand-ins for a path's hyphens and slashes while it is wrapped, one
// column wide as they are: term.Wrap breaks a word too long for a line
// after a hyphen or a slash, but an editor or a terminal follows a path
// only whole.
const (
	keptHyphen = "\u2011" // non-breaking hyphen
	keptSlash  = "\u2215" // division slash
)

// keptSpace stands, while a line is wrapped, for a space the line must
// not break at: inside a score ("0/4 points") or a short observation
// ("Degraded() = 1"). It is a character of the private use area, one
// column wide, which no course text or quoted value has, so unkeep can
// put every one back as a space.
const keptSpace = "\ue010"

// unkeep puts back the spaces keptSpace stood for.
func unkeep(s string) string { return strings.ReplaceAll(s, keptSpace, " ") }

// wrapKeepingPaths is term.Wrap, but never breaks a word that names a
// file ("FILE:LINE:"): one too long for a line gets a line of its own,
// wider than width where it must be, which the terminal folds without
// making two words of it.
func wrapKeepingPaths(s string, width int) []string {
	if strings.Contains(s, keptHyphen) || strings.Contains(s, keptSlash) {
		return term.Wrap(s, width)
	}
	keep := strings.NewReplacer("-", keptHyphen, "/", keptSlash)
	words := strings.Split(s, " ")
	kept := false
	for i, w := range words {
		if strings.ContainsAny(w, "-/") && pathWord().MatchString(w) {
			words[i], kept = keep.Replace(w), true
		}
	}
	if !kept {
		return term.Wrap(s, width)
	}
	lines := term.Wrap(strings.Join(words, " "), width)
	back := strings.NewReplacer(keptHyphen, "-", keptSlash, "/")
	for i := range lines {
		lines[i] = back.Replace(lines[i])
	}
	return lines
}

// text renders one test's explanation, bounded to textsafe.TestMax.
func (t *TestExplanation) text(p *i18n.Printer, opt TextOptions) string {
	var b strings.Builder
	if t.Random != "" {
		b.WriteString(term.Fit(t.Random, opt.Width) + "\n")
	}
	b.WriteString(strings.Join(WrapHanging(t.Headline, "", "  ", opt.Width), "\n") + "\n")
	if t.Detail != "" {
		b.WriteString(term.Fit(indent(t.Detail, "  "), opt.Width) + "\n")
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
// came back; then the steps the test would have made next. On a terminal
// too narrow for a step's row, each step is a block instead (see
// term.TableFits), what came back under the call.
func (tr *Trace) text(p *i18n.Printer, opt TextOptions) string {
	type line struct {
		mark, n, call, got string
		note               bool // a note in place of steps, not a call: it sets no column's width
	}
	var lines []line
	var failing *Row
	var after []line
	rows, hidden := tr.Rows, 0
	if !opt.Full {
		rows, hidden = tr.Around()
	}
	for i := range rows {
		r := &rows[i]
		if hidden > 0 && r.Kind != RowNew {
			lines = append(lines, line{n: "⋮", call: p.T("trace.earlier", "Count", hidden), note: true})
			hidden = 0
		}
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
			l = line{n: "⋮", call: p.T("trace.elided", "Count", r.Elided), note: true}
		case RowAfter:
			after = append(after, line{mark: "·", n: l.n, call: r.Call})
			continue
		}
		lines = append(lines, l)
	}
	wn, wc := 1, 1
	for _, l := range append(lines[:len(lines):len(lines)], after...) {
		wn = max(wn, term.Width(l.n))
		if !l.note {
			wc = max(wc, term.Width(l.call))
		}
	}
	// The step's mark and number, then the call at column callAt; in the
	// table, what came back in a column of its own after the call's.
	callAt := 6 + wn
	head := func(l line) string {
		mark := " "
		if l.mark != "" {
			mark = l.mark
		}
		return fmt.Sprintf("  %s %*s%s%s", mark, wn, l.n, term.ColumnGap, l.call)
	}
	row := func(l line) string {
		s := head(l)
		if l.got != "" {
			s += strings.Repeat(" ", max(0, wc-term.Width(l.call))) + term.ColumnGap + "→ " + l.got
		}
		return strings.TrimRight(s, " ")
	}
	var table []string
	for _, l := range append(lines[:len(lines):len(lines)], after...) {
		if !l.note {
			table = append(table, row(l))
		}
	}
	wantGot := failing != nil && !failing.Panicked && !failing.TimedOut
	// Where a step's row does not fit, term.TableFits's rule lays each
	// step out as a block: its call, and under it what came back, or for
	// the step that departed what was expected and what came back.
	blocks := !term.TableFits(table, opt.Width)
	var b strings.Builder
	under := strings.Repeat(" ", callAt+2)
	for _, l := range lines {
		switch {
		case l.note:
			b.WriteString(fitAt(head(l), callAt, opt.Width))
		case !blocks:
			b.WriteString(row(l) + "\n")
		default:
			b.WriteString(fitAt(head(l), callAt, opt.Width))
			if l.got != "" && !(l.mark == "✗" && wantGot) {
				b.WriteString(fitAt(under+"→ "+l.got, len(under)+2, opt.Width))
			}
		}
	}
	if wantGot {
		pad := strings.Repeat(" ", 4+wn)
		if blocks {
			pad = under
		}
		want, got := p.T("trace.want"), p.T("trace.got")
		ws := pad + want + " " + tr.side(failing, true, false)
		gs := pad + got + " " + tr.side(failing, false, opt.Color)
		wat, gat := len(pad)+term.Width(want)+1, len(pad)+term.Width(got)+1
		// The two lines are read against each other: where either must
		// go on four columns in, so does the other, so that their
		// further lines begin in the same column.
		under := fitsUnder(ws, wat, opt.Width) && fitsUnder(gs, gat, opt.Width)
		b.WriteString(fitAtRule(ws, wat, opt.Width, under))
		b.WriteString(fitAtRule(gs, gat, opt.Width, under))
	}
	for i, l := range after {
		s := row(l)
		if i == 0 {
			if note := p.T("trace.after"); opt.Width <= 0 || term.Width(s)+3+term.Width(note) <= opt.Width {
				s += "   " + note
			} else {
				s += "\n" + strings.Repeat(" ", 4+wn) + note
			}
		}
		for l := range strings.SplitSeq(fitAt(s, callAt, opt.Width), "\n") {
			if l != "" {
				b.WriteString(markDim + l + markEnd + "\n")
			}
		}
	}
	return unkeep(b.String())
}

// fitAt returns the line s and a line end; in a terminal (width > 0) too
// narrow for it, its words after column at go on in further lines under
// that column, or four columns in where fewer than 20 would be left or a
// word is wider than the room under it.
func fitAt(s string, at, width int) string {
	return fitAtRule(s, at, width, fitsUnder(s, at, width))
}

// fitsUnder reports whether fitAt goes on under column at with s rather
// than four columns in.
func fitsUnder(s string, at, width int) bool {
	if width <= 0 || term.Width(s) <= width {
		return true
	}
	head, rest := splitHead(s, at)
	at = term.Width(head)
	return width-at >= 20 && !slices.ContainsFunc(term.Wrap(rest, max(width-at, 1)), func(l string) bool { return term.Width(l) > width-at })
}

// splitHead splits s after at columns, the spaces there staying in the
// head.
func splitHead(s string, at int) (head, rest string) {
	head, rest = splitAt(s, at)
	words := strings.TrimLeft(rest, " ")
	return head + rest[:len(rest)-len(words)], words
}

// fitAtRule is fitAt, its further lines under column at when under is
// set and four columns in from where s begins otherwise. Its lines may
// hold keptSpace, for the caller to unkeep.
func fitAtRule(s string, at, width int, under bool) string {
	if width <= 0 || term.Width(s) <= width {
		return s + "\n"
	}
	head, rest := splitHead(s, at)
	at = term.Width(head)
	lines := term.Wrap(rest, max(width-at, 1))
	if !under {
		// Too little room under the value, or a word wider than it: the
		// words go on four columns in from where the line begins. What
		// stands before column at ("got:      ") keeps its spaces and its
		// first word after it, as in the lines above and below.
		lead := len(s) - len(strings.TrimLeft(s, " "))
		head, rest = s[:lead], strings.ReplaceAll(head[lead:], " ", keptSpace)+rest
		at = lead + 4
		lines = term.Wrap(rest, max(width-at, 1))
	}
	pad := strings.Repeat(" ", at)
	var b strings.Builder
	for i, l := range lines {
		if i == 0 {
			b.WriteString(head + l + "\n")
		} else {
			b.WriteString(pad + l + "\n")
		}
	}
	return b.String()
}

// splitAt splits s after at columns.
func splitAt(s string, at int) (string, string) {
	n := 0
	for i, r := range s {
		if n >= at {
			return s[:i], s[i:]
		}
		n += term.Width(string(r))
	}
	return s, ""
}

// keptObservation is the width up to which an observation
// ("Degraded() = 1") stays on one line when a value is wrapped: it is
// read as one fact, and fitAt leaves at least this many columns.
const keptObservation = 20

// side writes the returned value and the observations of a row, the
// expected ones or those that came back: `true, State() = "open"`. With
// color, the values that differ stand out. The spaces of a short
// observation are keptSpace, so that a wrap keeps it on one line; the
// caller unkeeps them.
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
			if term.Width(v) <= keptObservation {
				v = strings.ReplaceAll(v, " ", keptSpace)
			}
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
		return SummaryFor(p, ex, res)
	}
	e := Explain(p, ex, res, opt)
	parts := []string{e.Summary}
	for i := range e.Tests {
		if t := &e.Tests[i]; t.Status != checker.Pass || e.Quiz {
			parts = append(parts, paint(t.text(p, TextOptions{Full: true}), false))
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
	return TestFor(p, ex, res, t, Learner)
}

// TestFor is Test in the words for aud (see explainTest): a document
// for a class speaks to the teacher.
func TestFor(p *i18n.Printer, ex *course.Exercise, res *checker.Result, t *checker.Test, aud Audience) string {
	// A document keeps every step: it is read by tools and graders, who
	// have no --full to ask for the rest.
	return paint(explainTest(p, ex, res, t, aud).text(p, TextOptions{Full: true}), false)
}

// TestWidth is Test laid out for a terminal width columns wide, as
// TextOptions.Width lays a result out; width 0 is Test, for files and
// pipes.
func TestWidth(p *i18n.Printer, ex *course.Exercise, res *checker.Result, t *checker.Test, width int) string {
	return paint(explainTest(p, ex, res, t, Learner).text(p, TextOptions{Full: true, Width: width}), false)
}

// explanation renders a misconception's explanation, Markdown, four
// columns in: on a terminal wrapped to its width and styled as a lesson
// is, elsewhere with each paragraph on one line, for grep.
func explanation(s string, opt TextOptions) string {
	width := opt.Width - 4
	if opt.Width <= 0 {
		width = 1 << 20
	}
	lines, _ := termdoc.Lines([]byte(s), termdoc.Options{Width: width, Color: opt.Color})
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if l != "" {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "\n")
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

// Package termdoc renders Markdown as text for a terminal, for learners who
// read the lessons where they work: headings, paragraphs wrapped to a
// width, lists, block quotes, GFM tables drawn with aligned columns (or, on
// a page too narrow for them, one record per block), code blocks
// (highlighted with chroma when colour is on) and mermaid diagrams as a
// list of their transitions. Text and tables fit the width and break only
// between words; a line of code too long for it is broken at a space.
//
// Without colour the output is plain UTF-8 text with no escape sequences,
// fit for pipes, files and tests. termdoc renders what kurs's course texts
// use; it does not interpret raw HTML (it shows it as text, and HTML
// comments not at all) and does not draw diagrams or figures as pictures.
// Lines returns the rendered lines with the document's headings, for a
// pager such as package pager.
package termdoc

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/kurs-course/kurs/internal/highlight"
	"github.com/kurs-course/kurs/internal/term"
)

// DefaultWidth is the width when Options.Width is not set.
const DefaultWidth = 80

// Options say how to render.
type Options struct {
	// Width is the number of columns to fit text and tables into; code is
	// never wrapped. 0 means DefaultWidth.
	Width int
	// Color turns on ANSI styles and syntax highlighting; leave it off
	// unless the output is a terminal.
	Color bool
}

// nbsp stands for a space that wrapping must not break, inside short code
// spans; it becomes a space again before output.
const nbsp = '\uE000'

// markdown is the parser: CommonMark with GitHub's tables, strikethrough,
// task lists and autolinks, as the web UI renders lessons. It is made on
// first use: making it costs every start of kurs otherwise.
var markdown = sync.OnceValue(func() goldmark.Markdown { return goldmark.New(goldmark.WithExtensions(extension.GFM)) })

// Render writes the Markdown document src to w as terminal text.
func Render(w io.Writer, src []byte, opt Options) error {
	lines, _ := Lines(src, opt)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Heading is a section heading of a rendered document.
type Heading struct {
	Level int    // 1 for "#", 2 for "##", and so on
	Title string // its text, without styles or Markdown
	Line  int    // the index of its first line in the rendered lines
}

// Lines renders the Markdown document src as Render does and returns its
// lines, without line ends, and its headings outside lists and quotes, in
// order.
func Lines(src []byte, opt Options) ([]string, []Heading) {
	if opt.Width <= 0 {
		opt.Width = DefaultWidth
	}
	doc := markdown().Parser().Parse(text.NewReader(src))
	r := &renderer{src: src, opt: opt}
	plain := &renderer{src: src}
	var lines []string
	var heads []Heading
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		block := r.block(c, opt.Width)
		if len(block) == 0 {
			continue
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		if h, ok := c.(*ast.Heading); ok {
			title := strings.ReplaceAll(strings.ReplaceAll(plain.inline(h), string(nbsp), " "), "`", "")
			heads = append(heads, Heading{Level: h.Level, Title: strings.Join(strings.Fields(title), " "), Line: len(lines)})
		}
		lines = append(lines, block...)
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(strings.ReplaceAll(l, string(nbsp), " "), " ")
	}
	return lines, heads
}

type renderer struct {
	src []byte
	opt Options
}

func (r *renderer) style(on, s, off string) string {
	if !r.opt.Color || s == "" {
		return s
	}
	return on + s + off
}

// blocks renders the block children of n, one blank line between them.
func (r *renderer) blocks(n ast.Node, width int) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

func (r *renderer) block(n ast.Node, width int) []string {
	switch n := n.(type) {
	case *ast.Heading:
		return r.heading(n, width)
	case *ast.Paragraph, *ast.TextBlock:
		return wrap(r.inline(n), width)
	case *ast.List:
		return r.list(n, width)
	case *ast.Blockquote:
		return prefix(r.blocks(n, width-2), r.style(term.Cyan, "│", term.ColorOff)+" ", r.style(term.Cyan, "│", term.ColorOff)+" ")
	case *ast.FencedCodeBlock:
		lang := string(n.Language(r.src))
		code := r.lines(n)
		if lang == "mermaid" {
			if l := diagram(code, width-2); l != nil {
				return prefix(l, "  ", "  ")
			}
		}
		return r.code(code, lang, width)
	case *ast.CodeBlock:
		return r.code(r.lines(n), "", width)
	case *ast.HTMLBlock:
		if n.HTMLBlockType == ast.HTMLBlockType2 {
			return nil // a comment, such as a note to the course's tools
		}
		return strings.Split(strings.TrimRight(r.lines(n), "\n"), "\n")
	case *ast.ThematicBreak:
		return []string{strings.Repeat("─", min(width, 40))}
	case *east.Table:
		return r.table(n, width)
	}
	return r.blocks(n, width)
}

func (r *renderer) heading(n *ast.Heading, width int) []string {
	if n.Level > 2 {
		width -= 2
	}
	lines := wrap(r.inline(n), width)
	w := 0
	for _, l := range lines {
		w = max(w, Width(l))
	}
	for i, l := range lines {
		lines[i] = r.style(term.Bold, l, term.BoldOff)
	}
	switch n.Level {
	case 1:
		return append(lines, strings.Repeat("═", w))
	case 2:
		return append(lines, strings.Repeat("─", w))
	}
	// Deeper headings are marked rather than underlined, so that they
	// stand out from a paragraph without colour, too.
	return prefix(lines, "▸ ", "  ")
}

func (r *renderer) list(n *ast.List, width int) []string {
	markers := []string{}
	i := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if n.IsOrdered() {
			markers = append(markers, strconv.Itoa(n.Start+i)+".")
		} else {
			markers = append(markers, "•")
		}
		i++
	}
	mw := 0
	for _, m := range markers {
		mw = max(mw, Width(m))
	}
	var out []string
	i = 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		var lines []string
		if n.IsTight {
			for b := c.FirstChild(); b != nil; b = b.NextSibling() {
				lines = append(lines, r.block(b, width-mw-1)...)
			}
		} else {
			if i > 0 {
				out = append(out, "")
			}
			lines = r.blocks(c, width-mw-1)
		}
		// Numbers align on the right, as 9. and 10. should.
		m := strings.Repeat(" ", mw-Width(markers[i])) + markers[i] + " "
		out = append(out, prefix(lines, m, strings.Repeat(" ", mw+1))...)
		i++
	}
	return out
}

// lines returns the raw text of a block, such as a code block's code.
func (r *renderer) lines(n ast.Node) string {
	var b bytes.Buffer
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		b.Write(seg.Value(r.src))
	}
	return b.String()
}

// codeIndent is how far code blocks are indented.
const codeIndent = "    "

// code renders a code block indented by four spaces, highlighted when
// colour is on. A line too long for width is broken at a space, after a
// comma if it can be, and its rest indented one level deeper; a break in a
// line comment starts the rest with "// " again.
func (r *renderer) code(code, lang string, width int) []string {
	plain := Highlight(code, lang, false)
	shown := plain
	if r.opt.Color {
		shown = Highlight(code, lang, true)
	}
	avail := max(width-len(codeIndent), 20)
	var out []string
	for i, line := range plain {
		out = append(out, breakCode(line, shown[i], avail)...)
	}
	return prefix(out, codeIndent, codeIndent)
}

// Code returns code split into lines as Highlight does, each line too
// long for width columns broken as a code block's are: at a space, the
// rest indented one level deeper. Width 0 leaves every line whole.
func Code(code, lang string, width int, color bool) []string {
	plain := Highlight(code, lang, false)
	shown := plain
	if color {
		shown = Highlight(code, lang, true)
	}
	if width <= 0 {
		return shown
	}
	var out []string
	for i, line := range plain {
		out = append(out, breakCode(line, shown[i], max(width, 20))...)
	}
	return out
}

// breakCode breaks one line of code (plain, and shown as it is output,
// perhaps with colours) into pieces of at most width columns, each after
// the first indented one level deeper than the line. A line comment goes
// on with "// "; a break inside a string, the last resort, is marked with
// "↪ ". A line without a space to break at stays whole.
func breakCode(plain, shown string, width int) []string {
	var out []string
	base := strings.Repeat(" ", len(plain)-len(strings.TrimLeft(plain, " ")))
	for utf8.RuneCountInString(plain) > width {
		indent := len(plain) - len(strings.TrimLeft(plain, " "))
		at, inString := codeBreak(plain, width, indent+1)
		if at < 0 {
			break
		}
		head, tail := cut(shown, utf8.RuneCountInString(plain[:at]))
		rest := strings.TrimLeft(plain[at:], " ")
		_, tail = cut(tail, len(plain)-at-len(rest)) // the spaces at the break
		state := sgrState(head)
		more := base + codeIndent
		switch c := commentStart(plain); {
		case inString:
			more += "↪ "
		case c == len(base):
			more = base + "// " // a comment line goes on as one
		case c >= 0 && c < at:
			more += "// "
		}
		if utf8.RuneCountInString(more+rest) >= utf8.RuneCountInString(plain) {
			// In a terminal too narrow for the indentation, a break
			// would only make the line longer: it stays whole.
			break
		}
		if state != "" {
			head += term.Reset
		}
		out = append(out, strings.TrimRight(head, " "))
		plain, shown = more+rest, more+state+tail
	}
	return append(out, shown)
}

// scanCode calls f with the byte index of every byte of line outside
// string and rune literals, until f returns false.
func scanCode(line string, f func(i int) bool) {
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '`' || c == '\'':
			quote = c
		default:
			if !f(i) {
				return
			}
		}
	}
}

// commentStart returns the byte index of the line comment in a line of
// code, or -1.
func commentStart(line string) int {
	at := -1
	scanCode(line, func(i int) bool {
		if strings.HasPrefix(line[i:], "//") {
			at = i
			return false
		}
		return true
	})
	return at
}

// codeBreak returns the byte index of the space in line where a break
// leaves at most width columns before it: the last one after a comma,
// else the last one at or after from, outside strings if it can. inString reports a break inside a string.
func codeBreak(line string, width, from int) (at int, inString bool) {
	comma, space, any := -1, -1, -1
	comment := commentStart(line)
	fits := func(i int) bool { return utf8.RuneCountInString(line[:i]) <= width }
	for i := from; i < len(line) && fits(i); i++ {
		if line[i] == ' ' && line[i-1] != ' ' {
			any = i
		}
	}
	check := func(i int) bool {
		if !fits(i) {
			return false
		}
		if line[i] != ' ' || i < from || line[i-1] == ' ' {
			return true
		}
		space = i
		if line[i-1] == ',' && (comment < 0 || i < comment) {
			comma = i
		}
		return true
	}
	if comment >= 0 {
		// Inside a comment, quotes are words like any other.
		scanCode(line[:comment], check)
		for i := comment; i < len(line) && check(i); i++ {
		}
	} else {
		scanCode(line, check)
	}
	for _, i := range []int{comma, space} {
		if i > 0 {
			return i, false
		}
	}
	return any, any > 0
}

// sgrState returns the last colour escape sequence in s that no reset
// follows, so that a line broken in the middle of a coloured token can
// start its rest in the same colour.
func sgrState(s string) string {
	state := ""
	for i := 0; i < len(s); {
		if s[i] != 0x1b {
			i++
			continue
		}
		j := term.SkipEscape(s, i)
		switch code := s[i:j]; code {
		case term.Reset, "\x1b[m":
			state = ""
		default:
			state = code
		}
		i = j
	}
	return state
}

// Highlight returns code split into lines, with ANSI colours for lang
// ("go", …) when color is set. Tabs become four spaces, so that columns
// line up however the terminal sets its tab stops.
func Highlight(code, lang string, color bool) []string {
	code = strings.TrimRight(strings.ReplaceAll(code, "\t", "    "), "\n")
	plain := strings.Split(code, "\n")
	if !color || lang == "" {
		return plain
	}
	lexer := highlight.Lexer(lang)
	if lexer == nil {
		return plain
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return plain
	}
	// pygments sets no colour for plain text and no background, so the
	// terminal's own colours show through on dark and light themes alike;
	// 16 colours follow the terminal's palette.
	style := highlight.Style("pygments")
	var out []string
	for _, line := range chroma.SplitTokensIntoLines(it.Tokens()) {
		var b strings.Builder
		if err := formatters.TTY16.Format(&b, style, chroma.Literator(line...)); err != nil {
			return plain
		}
		out = append(out, strings.TrimRight(b.String(), "\n"))
	}
	for len(out) < len(plain) {
		out = append(out, "")
	}
	return out[:len(plain)]
}

// inline renders the inline content of n as one string; "\n" stands for a
// hard line break.
func (r *renderer) inline(n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inlineNode(&b, c)
	}
	return b.String()
}

func (r *renderer) inlineNode(b *strings.Builder, n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		b.Write(n.Value(r.src))
		switch {
		case n.HardLineBreak():
			b.WriteByte('\n')
		case n.SoftLineBreak():
			b.WriteByte(' ')
		}
	case *ast.String:
		b.Write(n.Value)
	case *ast.CodeSpan:
		var code strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				code.Write(t.Value(r.src))
			} else if s, ok := c.(*ast.String); ok {
				code.Write(s.Value)
			}
		}
		s := code.String()
		if utf8.RuneCountInString(s) <= 24 {
			s = strings.ReplaceAll(s, " ", string(nbsp))
		}
		if r.opt.Color {
			b.WriteString(term.Cyan + s + term.ColorOff)
		} else {
			b.WriteString("`" + s + "`")
		}
	case *ast.Emphasis:
		if n.Level >= 2 {
			b.WriteString(r.style(term.Bold, r.inline(n), term.BoldOff))
		} else {
			b.WriteString(r.style(term.Italic, r.inline(n), term.ItalicOff))
		}
	case *ast.Link:
		label := r.inline(n)
		dest := string(n.Destination)
		b.WriteString(r.style(term.Underline, label, term.UnderlineOff))
		if dest != "" && dest != label && !strings.HasPrefix(dest, "#") {
			b.WriteString(" (" + dest + ")")
		}
	case *ast.AutoLink:
		b.WriteString(r.style(term.Underline, string(n.URL(r.src)), term.UnderlineOff))
	case *ast.Image:
		b.WriteString("[" + r.inline(n) + "]")
	case *ast.RawHTML:
		var raw strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			raw.Write(seg.Value(r.src))
		}
		if !strings.HasPrefix(raw.String(), "<!--") {
			b.WriteString(raw.String())
		}
	case *east.Strikethrough:
		if r.opt.Color {
			b.WriteString(term.Strike + r.inline(n) + term.StrikeOff)
		} else {
			b.WriteString("~~" + r.inline(n) + "~~")
		}
	case *east.TaskCheckBox:
		if n.IsChecked {
			b.WriteString("[x] ")
		} else {
			b.WriteString("[ ] ")
		}
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			r.inlineNode(b, c)
		}
	}
}

// prefix puts first before the first line and rest before the others.
func prefix(lines []string, first, rest string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" {
			out[i] = strings.TrimRight(p, " ")
			continue
		}
		out[i] = p + l
	}
	return out
}

// Width returns the number of columns s takes in a terminal (see
// term.Width).
func Width(s string) int { return term.Width(s) }

// wrap breaks s into lines of at most width columns at spaces; "\n" forces
// a break. A word longer than width gets a line of its own. Running text
// gets at least 10 columns, however deep it is nested.
func wrap(s string, width int) []string {
	return term.Wrap(s, max(width, 10))
}

// Wrap breaks s into lines of at most width columns at its spaces (see
// term.Wrap).
func Wrap(s string, width int) []string { return term.Wrap(s, width) }

// Words splits s at the spaces where a line may break (see term.Words).
func Words(s string) []string { return term.Words(s) }

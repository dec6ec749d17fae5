package cli

import (
	"strings"

	"github.com/kurs-course/kurs/internal/termdoc"
)

// The layout of help texts: what kurs help and kurs VERB --help print.
// The catalogs write a help text as blocks separated by blank lines: a
// synopsis ("Usage: kurs VERB …" and the lines under it), paragraphs of
// prose, lists of flags or verbs (an indented term, two spaces or more,
// its description) and indented examples. A block that fits the width is
// printed as written; one that does not is laid out again: prose is
// wrapped, a description is wrapped under its own column, a synopsis
// breaks between its arguments. An example is meant to be copied: one
// too wide is continued with a backslash between its shell words, never
// inside quotes, so that a shell still reads it as one command.

// minDescWidth is the least room a flag's description gets beside its
// term; with less, each description goes under its term.
const minDescWidth = 24

// helpWidth returns the width help is laid out to: the terminal's, else
// COLUMNS, else 80 columns, and no more than running text gets.
func (e *env) helpWidth() int {
	return min(e.screen().width, maxTextWidth)
}

// layoutHelp lays text, a help text from the catalogs, out to width
// columns.
func layoutHelp(text string, width int) string {
	blocks := strings.Split(text, "\n\n")
	for i, b := range blocks {
		blocks[i] = layoutBlock(strings.Split(b, "\n"), width)
	}
	// A no-break space keeps words together ("h next hint"); the
	// terminal gets a plain one, which copies as one.
	return strings.ReplaceAll(strings.Join(blocks, "\n\n"), "\u00a0", " ")
}

// layoutBlock lays one block out, unchanged when it fits.
func layoutBlock(lines []string, width int) string {
	fits := true
	for _, l := range lines {
		fits = fits && termdoc.Width(l) <= width
	}
	if fits {
		return strings.Join(lines, "\n")
	}
	var out []string
	switch {
	case isSynopsis(lines[0]):
		out = wrapSynopsis(lines, width)
	case hasDefinitions(lines):
		out = layoutDefinitions(lines, width)
	default:
		out = layoutProse(lines, width)
	}
	return strings.Join(out, "\n")
}

// isSynopsis reports whether l starts a synopsis: "Usage: kurs …".
func isSynopsis(l string) bool {
	label, rest, ok := strings.Cut(l, ": ")
	return ok && !strings.ContainsRune(label, ' ') && strings.HasPrefix(rest, "kurs ")
}

// wrapSynopsis breaks the lines of a synopsis between their arguments
// (never inside brackets), each further line indented under the verb's
// first argument, or four columns in from "kurs" for every line when an
// argument would not fit there.
func wrapSynopsis(lines []string, width int) []string {
	type synopsis struct {
		prefix     string   // "Usage: " or its indentation
		head, args []string // "kurs grade", and what follows it
	}
	var syns []synopsis
	narrow := false
	for _, l := range lines {
		start := strings.Index(l, "kurs ")
		if start < 0 {
			syns = append(syns, synopsis{prefix: l})
			continue
		}
		words := synopsisWords(l[start:])
		head := min(2, len(words))
		sy := synopsis{l[:start], words[:head], words[head:]}
		lead := termdoc.Width(sy.prefix) + termdoc.Width(strings.Join(sy.head, " ")) + 1
		for _, w := range sy.args {
			narrow = narrow || lead+max(minDescWidth, termdoc.Width(w)) > width
		}
		syns = append(syns, sy)
	}
	var out []string
	for _, sy := range syns {
		line := sy.prefix + strings.Join(sy.head, " ")
		lead := termdoc.Width(line) + 1
		if narrow {
			lead = termdoc.Width(sy.prefix) + 4
		}
		for _, w := range sy.args {
			if termdoc.Width(line)+1+termdoc.Width(w) <= width {
				line += " " + w
				continue
			}
			out = append(out, line)
			line = strings.Repeat(" ", lead) + w
		}
		out = append(out, line)
	}
	return out
}

// synopsisWords splits a synopsis at the spaces outside brackets.
func synopsisWords(s string) []string {
	var words []string
	depth, from := 0, 0
	for i, r := range s {
		switch {
		case r == '[' || r == '{':
			depth++
		case r == ']' || r == '}':
			depth--
		case r == ' ' && depth <= 0:
			if i > from {
				words = append(words, s[from:i])
			}
			from = i + 1
		}
	}
	return append(words, s[from:])
}

// definition is one entry of a list of flags or verbs.
type definition struct {
	term, desc string
}

// splitDefinition splits an indented line "  TERM  DESCRIPTION" into its
// indentation, its term and the column its description starts at.
func splitDefinition(l string) (indent int, d definition, col int, ok bool) {
	indent = len(l) - len(strings.TrimLeft(l, " "))
	if indent < 2 || indent == len(l) {
		return 0, definition{}, 0, false
	}
	gap := strings.Index(l[indent:], "  ")
	if gap < 0 {
		return 0, definition{}, 0, false
	}
	gap += indent
	desc := strings.TrimLeft(l[gap:], " ")
	if desc == "" {
		return 0, definition{}, 0, false
	}
	return indent, definition{l[indent:gap], desc}, termdoc.Width(l[:len(l)-len(desc)]), true
}

// hasDefinitions reports whether a block holds a list of definitions.
func hasDefinitions(lines []string) bool {
	for _, l := range lines {
		if _, _, _, ok := splitDefinition(l); ok {
			return true
		}
	}
	return false
}

// layoutDefinitions lays a block out that holds a list of definitions,
// each line under its column continuing the description above it; any
// other line in it stays as written.
func layoutDefinitions(lines []string, width int) []string {
	var out, pending []string
	var defs []definition
	indent, col := 0, 0
	flush := func() {
		if len(defs) > 0 {
			out = append(out, definitionList(defs, indent, col, 0, width)...)
			defs = nil
		}
		out = append(out, pending...)
		pending = nil
	}
	for _, l := range lines {
		lead := len(l) - len(strings.TrimLeft(l, " "))
		if len(defs) > 0 && lead > indent && strings.TrimSpace(l) != "" {
			defs[len(defs)-1].desc += " " + strings.TrimSpace(l)
			continue
		}
		if in, d, c, ok := splitDefinition(l); ok && (len(defs) == 0 || in == indent) {
			if len(defs) == 0 {
				indent, col = in, c
			}
			col = min(col, c)
			defs = append(defs, d)
			continue
		}
		flush()
		out = append(out, l)
	}
	flush()
	return out
}

// definitionList lays defs out with their terms indented by indent and
// their descriptions wrapped in a column of their own: col, as the
// catalog aligns them, or when col is 0 the one after the widest term
// that leaves a description minDesc columns. A term too wide for the
// column has its description on the lines under it; when the column
// leaves less than minDescWidth, every description goes under its term,
// indented by four more columns.
func definitionList(defs []definition, indent, col, minDesc, width int) []string {
	if col == 0 {
		widest := 0
		for _, d := range defs {
			if w := termdoc.Width(d.term); indent+w+2+minDesc <= width {
				widest = max(widest, w)
			}
		}
		col = width // none fits: every description under its term
		if widest > 0 {
			col = indent + widest + 2
		}
	}
	stacked := width-col < minDescWidth
	if stacked {
		col = indent + 4
	}
	pad := strings.Repeat(" ", indent)
	var out []string
	for _, d := range defs {
		desc := termdoc.Wrap(d.desc, width-col)
		term := pad + d.term
		if stacked || termdoc.Width(term)+2 > col {
			out = append(out, term)
		} else {
			first := term + strings.Repeat(" ", col-termdoc.Width(term)) + desc[0]
			out = append(out, first)
			desc = desc[1:]
		}
		for _, l := range desc {
			out = append(out, strings.Repeat(" ", col)+l)
		}
	}
	return out
}

// layoutProse wraps a block of prose: its lines are one paragraph (a
// line that must stand alone is a block of its own in the catalogs). An
// indented line, an example, stays as written, but for a command too
// wide for the width, which is continued on the next lines.
func layoutProse(lines []string, width int) []string {
	var out []string
	para := ""
	flush := func() {
		if para != "" {
			out = append(out, termdoc.Wrap(para, width)...)
			para = ""
		}
	}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, " "):
			flush()
			out = append(out, breakCommand(l, width)...)
		case para == "":
			para = l
		default:
			para += " " + l
		}
	}
	flush()
	return out
}

// breakCommand breaks l, an indented example, when it is a kurs command
// wider than width: at the spaces between its shell words, each line but
// the last ending in a backslash, the further lines indented two more
// columns. A quoted argument stays whole on its line, as the shell
// would not join its halves. In a list of commands ("kurs init DIR && cd
// DIR") a line breaks after an operator, never before it, and a command
// that does not fit whole on the line before starts a line of its own,
// so that the reader sees where each command begins.
func breakCommand(l string, width int) []string {
	cmd := strings.TrimLeft(l, " ")
	if termdoc.Width(l) <= width || !strings.HasPrefix(cmd, "kurs ") {
		return []string{l}
	}
	indent := l[:len(l)-len(cmd)]
	words := shellWords(cmd)
	// room is what a line has for the words up to words[i]: a backslash
	// follows all but the last.
	room := func(i int) int {
		if i < len(words)-1 {
			return width - 2 // the " \" that would follow the word
		}
		return width
	}
	var out []string
	line := indent + words[0]
	for i := 1; i < len(words); i++ {
		fits := termdoc.Width(line)+1+termdoc.Width(words[i]) <= room(i)
		if fits && endsCommand(words[i-1]) {
			// A command begins: it goes on this line only whole.
			end := i
			for end < len(words)-1 && !endsCommand(words[end]) {
				end++
			}
			fits = termdoc.Width(line)+1+termdoc.Width(strings.Join(words[i:end+1], " ")) <= room(end)
		}
		if fits {
			line += " " + words[i]
			continue
		}
		out = append(out, line+" \\")
		line = indent + "  " + words[i]
	}
	return append(out, line)
}

// endsCommand reports whether w, a word of shellWords, ends a command in
// a list: it ends in an operator.
func endsCommand(w string) bool {
	for _, op := range []string{" &&", " ||", " |", ";"} {
		if strings.HasSuffix(w, op) {
			return true
		}
	}
	return false
}

// shellWords splits a command at the spaces outside its quotes. An
// operator between commands ("&&", "||", "|") stays with the word before
// it, so that no line starts with one.
func shellWords(s string) []string {
	var words []string
	var quote rune
	from := 0
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == ' ':
			if i > from {
				words = append(words, s[from:i])
			}
			from = i + 1
		}
	}
	if from < len(s) {
		words = append(words, s[from:])
	}
	joined := words[:0]
	for _, w := range words {
		if n := len(joined); n > 0 && (w == "&&" || w == "||" || w == "|") {
			joined[n-1] += " " + w
			continue
		}
		joined = append(joined, w)
	}
	return joined
}

package term

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width returns the number of columns s takes in a terminal, without its
// escape sequences. It counts grapheme clusters as a terminal draws them:
// "·", "✓", "✗" and "ü" take one column, also when the umlaut is written
// as u and a combining diaeresis, and a wide character takes two.
func Width(s string) int { return ansi.StringWidth(s) }

// SkipEscape returns the index after the escape sequence at s[i].
func SkipEscape(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '[' {
		j++
		for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
			j++
		}
		return min(j+1, len(s))
	}
	return min(j+1, len(s))
}

// Wrap breaks s into lines of at most width columns at its spaces (not
// at no-break spaces, see Words); "\n" forces a break. A word longer than
// width is broken after a hyphen or a slash, or else gets a line of its
// own, as a URL does, which must stay whole to be opened. A style begun on one line is ended
// at its end and begun again on the next. It is the one wrap of kurs's
// terminal text: lessons, help, results and the class's table.
func Wrap(s string, width int) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line, lw := "", 0
		for _, word := range wrapWords(para, width) {
			ww := Width(word)
			if ww > width && !strings.Contains(word, "://") {
				// A word wider than a line, such as a test's id, is
				// broken after a hyphen or a slash, where a reader
				// expects it to go on.
				pieces := breakLong(word, width)
				if lw > 0 {
					out = append(out, line)
				}
				out = append(out, pieces[:len(pieces)-1]...)
				word = pieces[len(pieces)-1]
				line, lw = word, Width(word)
				continue
			}
			switch {
			case lw == 0:
				line, lw = word, ww
			case lw+1+ww <= width:
				line, lw = line+" "+word, lw+1+ww
			default:
				out = append(out, line)
				line, lw = word, ww
			}
		}
		out = append(out, line)
	}
	return balance(out)
}

// breakLong breaks word into pieces of at most width columns after its
// hyphens and slashes; a piece with none to break at stays whole.
func breakLong(word string, width int) []string {
	var out []string
	for Width(word) > width {
		at := -1
		for i, r := range word {
			if Width(word[:i+1]) > width {
				break
			}
			if (r == '-' || r == '/') && i+1 < len(word) {
				at = i + 1
			}
		}
		if at <= 0 {
			break
		}
		out = append(out, word[:at])
		word = word[at:]
	}
	return append(out, word)
}

// Words splits s at the spaces where a line may break: every white space
// but the no-break ones (U+00A0, U+2007, U+202F), which a text uses to
// keep "4 × 4 × 4" or "z. B." on one line.
func Words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) && r != '\u00a0' && r != '\u2007' && r != '\u202f'
	})
}

// wrapWords splits a paragraph at its spaces, keeping abbreviations of
// single letters such as "z. B." and "d. h." together: a line must not
// end with half of one. A command in single quotes ('kurs init DIR')
// stays on one line too when it fits in width, so that it can be read
// and copied whole.
func wrapWords(para string, width int) []string {
	f := Words(para)
	out := f[:0:0]
	for i := 0; i < len(f); i++ {
		w := f[i]
		for i+1 < len(f) && letterDot(strings.TrimLeft(w[strings.LastIndexByte(w, ' ')+1:], "(„\"'")) && letterDot(f[i+1]) {
			w += " " + f[i+1]
			i++
		}
		if j := quoteEnd(f, i); j > i {
			if q := strings.Join(f[i:j+1], " "); Width(q) <= width {
				w, i = q, j
			}
		}
		out = append(out, w)
	}
	return out
}

// quoteEnd returns the index of the word that closes the single quote
// f[i] opens ("'kurs", "help", "check'."), or i when f[i] opens none or
// no word within the next few closes it. An apostrophe inside a word
// ("course's") opens nothing.
func quoteEnd(f []string, i int) int {
	open := strings.TrimLeft(f[i], "(")
	if !strings.HasPrefix(open, "'") || closesQuote(open[1:]) {
		return i
	}
	for j := i + 1; j < len(f) && j <= i+8; j++ {
		if closesQuote(f[j]) {
			return j
		}
	}
	return i
}

// closesQuote reports whether w ends a single quote: its last quote mark
// followed by nothing or by punctuation only.
func closesQuote(w string) bool {
	k := strings.LastIndexByte(w, '\'')
	return k >= 0 && strings.Trim(w[k+1:], ".,;:)!?") == ""
}

// letterDot reports whether w starts with one letter and a dot ("z.",
// "B.,"), the part of an abbreviation such as "z. B.".
func letterDot(w string) bool {
	r, size := utf8.DecodeRuneInString(w)
	return size > 0 && unicode.IsLetter(r) && strings.HasPrefix(w[size:], ".")
}

// balance closes the styles still open at the end of each line and opens
// them again on the next, so that a style broken across lines does not
// leak into a table's borders or the indentation.
func balance(lines []string) []string {
	var open []string
	for i, l := range lines {
		if !strings.Contains(l, "\x1b") && len(open) == 0 {
			continue
		}
		reopen := strings.Join(open, "")
		for j := 0; j < len(l); {
			if l[j] != 0x1b {
				j++
				continue
			}
			k := SkipEscape(l, j)
			code := l[j:k]
			if _, ok := offs[code]; ok {
				open = append(open, code)
			} else {
				for o := len(open) - 1; o >= 0; o-- {
					if offs[open[o]] == code {
						open = append(open[:o], open[o+1:]...)
						break
					}
				}
			}
			j = k
		}
		var closing strings.Builder
		for o := len(open) - 1; o >= 0; o-- {
			closing.WriteString(offs[open[o]])
		}
		lines[i] = reopen + l + closing.String()
	}
	return lines
}

// Package textsafe bounds and neutralises text that learner code controls
// before kurs shows it: observed values, panic values, crash text, output
// and file names.
//
// Such text may be huge (a State() that returns 3 MiB), may not be UTF-8,
// and may hold control characters that a terminal, a CI log or a browser
// would obey: ESC starts escape sequences that retitle a window or clear the
// screen, BEL rings, NUL ends strings in C. The functions here replace
// invalid UTF-8 with U+FFFD, write control characters as visible escapes
// (\x1b, \u009b) and cut what is too long, with a note in the reader's
// language that says how many bytes were left out.
//
// Control characters are the C0 controls (U+0000 to U+001F) except tab and
// line feed, DEL (U+007F) and the C1 controls (U+0080 to U+009F), which some
// terminals read like ESC followed by a letter; so no escape sequence
// survives. The bidirectional formatting characters (U+061C, U+200E, U+200F,
// U+202A to U+202E, U+2066 to U+2069) are escaped too: they reorder what a
// reader sees without showing themselves. Line drops tab and line feed from
// the exceptions, for text that must stay on one line.
package textsafe

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kurs-course/kurs/i18n"
)

// Limits on what kurs shows of learner-controlled text, in bytes of the
// text shown, before the note on what was cut.
const (
	// ValueMax bounds one value: an observed or returned value, a panic
	// value, a file name.
	ValueMax = 1 << 10
	// AnswerMax bounds a quiz answer as the learner wrote it, wherever it
	// is shown: an option is a letter, and an answer that is none is
	// shown only so far.
	AnswerMax = 40
	// BlockMax bounds one block of lines inside a message: compiler
	// output, a crash's last words.
	BlockMax = 8 << 10
	// TestMax bounds the explanation of one test.
	TestMax = 16 << 10
	// OutputMax bounds what the learner's code printed, as shown with the
	// message on an exercise.
	OutputMax = 32 << 10
	// MessageMax bounds everything shown on one exercise.
	MessageMax = 64 << 10
)

// Text returns s with invalid UTF-8 replaced, control characters other
// than tab and line feed escaped, and cut to at most limit bytes; when
// something was cut, Note follows, after an ellipsis. The result is
// never longer than limit plus len(Cut(p, len(s))), and holds no control
// character but tab and line feed.
func Text(p *i18n.Printer, s string, limit int) string {
	return bounded(p, s, limit, false)
}

// Line is Text for text that must stay on one line: line feeds and tabs
// are escaped too (\n, \t).
func Line(p *i18n.Printer, s string, limit int) string {
	return bounded(p, s, limit, true)
}

// Escape returns s with invalid UTF-8 replaced and control characters
// other than tab and line feed escaped, without a limit: for text that is
// bounded already.
func Escape(s string) string {
	out, _ := clean(s, len(s)*len(`\u0000`), false, false)
	return out
}

// EscapeLine is Escape for text that must stay on one line.
func EscapeLine(s string) string {
	out, _ := clean(s, len(s)*len(`\u0000`), true, false)
	return out
}

// Prefix returns the longest prefix of s of at most limit bytes that does
// not end inside a UTF-8 sequence, and the number of bytes of s after it.
// The prefix is neither escaped nor checked: for callers that escape it
// their own way (strconv.Quote) and then add Cut.
func Prefix(s string, limit int) (string, int) {
	if len(s) <= limit {
		return s, 0
	}
	i := max(limit, 0)
	for k := 1; k < utf8.UTFMax && i > 0 && !utf8.RuneStart(s[i]); k++ {
		i--
	}
	return s[:i], len(s) - i
}

// Cut returns the note on n bytes that were left out, in p's language,
// with an ellipsis in front: "… [3145728 more bytes cut]". It is "" when n
// is 0.
func Cut(p *i18n.Printer, n int) string {
	if n <= 0 {
		return ""
	}
	return "… " + p.T("textsafe.cut", "Count", n, "Bytes", strconv.Itoa(n))
}

func bounded(p *i18n.Printer, s string, limit int, line bool) string {
	out, cut := clean(s, limit, line, false)
	return out + Cut(p, cut)
}

// Style marks stand for kurs's own styling in text that also holds
// learner-controlled parts: a renderer writes them around what should
// stand out, and the output replaces them with its medium's styling (ANSI
// escapes on a terminal) or drops them. Every function here escapes them
// like control characters, so text that passed through textsafe never
// holds one, and a mark in the final text is always kurs's own.
const (
	MarkBad = '\ue000' // a value that differs from the expected one
	MarkDim = '\ue001' // what the learner need not read first
	MarkEnd = '\ue002' // the end of the styling a mark began
)

// Marked is Text for text that kurs wrote with style marks around parts
// that already passed through textsafe: the marks are kept, everything
// else is escaped and bounded as Text does.
func Marked(p *i18n.Printer, s string, limit int) string {
	out, cut := clean(s, limit, false, true)
	return out + Cut(p, cut)
}

// isMark reports whether r is one of the style marks.
func isMark(r rune) bool { return r >= MarkBad && r <= MarkEnd }

// clean escapes s into at most limit bytes and returns the result and the
// number of bytes of s that did not fit.
func clean(s string, limit int, line, marks bool) (string, int) {
	if len(s) <= limit && safe(s, line, marks) {
		return s, 0
	}
	var b strings.Builder
	b.Grow(min(len(s), max(limit, 0)) + 16)
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		var piece string
		switch {
		case r == utf8.RuneError && size == 1:
			piece = "\uFFFD"
		case marks && isMark(r):
			piece = s[i : i+size]
		case escaped(r, line):
			piece = escape(r)
		default:
			piece = s[i : i+size]
		}
		if b.Len()+len(piece) > limit {
			break
		}
		b.WriteString(piece)
		i += size
	}
	return b.String(), len(s) - i
}

// safe reports whether s is valid UTF-8 without a rune that clean escapes.
func safe(s string, line, marks bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if escaped(rune(c), line) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || escaped(r, line) && !(marks && isMark(r)) {
			return false
		}
		i += size
	}
	return true
}

// escaped reports whether r is shown as an escape.
func escaped(r rune, line bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return line
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case isMark(r):
		return true
	}
	return false
}

// escape writes r as Go would in a string literal.
func escape(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\t':
		return `\t`
	case '\r':
		return `\r`
	}
	if r < utf8.RuneSelf {
		return `\x` + hex2(byte(r))
	}
	return `\u` + hex2(byte(r>>8)) + hex2(byte(r))
}

func hex2(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&0xf]})
}

// Package term is kurs's one view of where its text goes, in the spirit of
// the GitHub CLI's iostreams: whether an output stream is a terminal, how
// wide it is and whether it takes colours. Every text kurs writes for a
// person goes through a Terminal, which wraps it at spaces to the width,
// so that no line is wider than the window and no word is broken.
//
// A pipe or a file gets plain text: no escape sequence and each line of
// kurs's own words whole, for grep.
package term

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"
)

// DefaultWidth is the width when neither the terminal nor COLUMNS says.
const DefaultWidth = 80

// MaxText bounds the width of running text: lines much longer than this
// are hard to read, however wide the window.
const MaxText = 100

// Terminal is one output stream as kurs sees it.
type Terminal struct {
	w       io.Writer
	fd      int
	tty     bool
	color   bool
	columns int // COLUMNS, else DefaultWidth: the width when the window's is unknown
	status  int // lines the last Status drew on the terminal and left there
}

// New returns the Terminal that writes to w. w is a terminal when it is an
// *os.File on one; it takes colours unless NO_COLOR is set (no-color.org)
// or TERM is "dumb". getenv reads the environment, os.Getenv or a test's.
func New(w io.Writer, getenv func(string) string) *Terminal {
	t := &Terminal{w: w, columns: DefaultWidth}
	if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n > 0 {
		t.columns = n
	}
	if fd, ok := FD(w); ok {
		t.tty, t.fd = true, fd
		t.color = getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
	}
	return t
}

// FD returns the file descriptor of v when v is a terminal: the one test
// of whether kurs may draw, wrap to the width or read single keys.
func FD(v any) (int, bool) {
	f, ok := v.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0, false
	}
	return int(f.Fd()), true
}

// Writer returns the stream t writes to.
func (t *Terminal) Writer() io.Writer { return t.w }

// IsTerminal reports whether t is a terminal.
func (t *Terminal) IsTerminal() bool { return t.tty }

// Fd returns the terminal's file descriptor; it is 0 when t is not one.
func (t *Terminal) Fd() int { return t.fd }

// Color reports whether t takes colours and styles.
func (t *Terminal) Color() bool { return t.color }

// Width returns the number of columns to lay text out in: the window's,
// asked each time so that a resized window counts; else COLUMNS; else
// DefaultWidth.
func (t *Terminal) Width() int {
	if t.tty {
		if w, _, err := term.GetSize(t.fd); err == nil && w > 0 {
			return w
		}
	}
	return t.columns
}

// TextWidth returns the width to wrap kurs's prose to: on a terminal the
// window's, at most MaxText; elsewhere 0, so that a file or a pipe gets
// each line whole, the same whatever COLUMNS says.
func (t *Terminal) TextWidth() int {
	if !t.tty {
		return 0
	}
	return min(t.Width(), MaxText)
}

// Println writes s, kurs's own words, and a line end: on a terminal each
// line of s wrapped to TextWidth at spaces, its further lines indented as
// far as it is.
func (t *Terminal) Println(s string) {
	io.WriteString(t.w, t.Fit(s)+"\n")
}

// Fit returns s as Println writes it, without the last line end.
func (t *Terminal) Fit(s string) string {
	return Fit(s, t.TextWidth())
}

// Fit wraps each line of s to width columns at spaces, its further lines
// indented as far as it is; width 0 leaves s as it is. A line too
// indented to leave 20 columns for words stays whole.
func Fit(s string, width int) string {
	if width <= 0 {
		return s
	}
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if Width(l) <= width {
			out = append(out, l)
			continue
		}
		words := strings.TrimLeft(l, " ")
		lead := l[:len(l)-len(words)]
		if width-len(lead) < 20 {
			out = append(out, l)
			continue
		}
		for _, w := range Wrap(words, width-len(lead)) {
			out = append(out, lead+w)
		}
	}
	return strings.Join(out, "\n")
}

// Status writes s on the terminal in place of what the previous Status
// wrote, wrapped to the width at spaces so that all of it shows;
// elsewhere it writes s as a line of its own. A Terminal's Status calls
// come one at a time.
func (t *Terminal) Status(s string) {
	if !t.tty {
		io.WriteString(t.w, s+"\n")
		return
	}
	// One column spare: a line that fills the last one leaves the cursor
	// waiting to wrap on some terminals.
	text := Fit(s, min(t.Width()-1, MaxText))
	io.WriteString(t.w, t.eraseStatus()+text)
	t.status = strings.Count(text, "\n") + 1
}

// ClearStatus erases the lines Status wrote.
func (t *Terminal) ClearStatus() {
	if t.tty {
		io.WriteString(t.w, t.eraseStatus())
		t.status = 0
	}
}

// eraseStatus returns what takes the cursor back to the start of the
// lines the last Status drew and erases them.
func (t *Terminal) eraseStatus() string {
	up := ""
	if t.status > 1 {
		up = fmt.Sprintf(CursorUp, t.status-1)
	}
	return "\r" + up + ClearDown
}

// Clear returns what clears the screen of a terminal: ClearScreen, or ""
// elsewhere.
func (t *Terminal) Clear() string {
	if !t.tty {
		return ""
	}
	return ClearScreen
}

package term

// The escape sequences kurs writes to a terminal, all of them: no other
// file of kurs writes one, so that what a terminal receives is read in one
// place. Each style comes with the code that ends only it, so that styles
// nest; syntax highlighting is chroma's.
const (
	Bold         = "\x1b[1m"
	BoldOff      = "\x1b[22m"
	Dim          = "\x1b[2m"
	Italic       = "\x1b[3m"
	ItalicOff    = "\x1b[23m"
	Underline    = "\x1b[4m"
	UnderlineOff = "\x1b[24m"
	Reverse      = "\x1b[7m"
	ReverseOff   = "\x1b[27m"
	Strike       = "\x1b[9m"
	StrikeOff    = "\x1b[29m"
	Cyan         = "\x1b[36m"
	ColorOff     = "\x1b[39m"
	// Bad marks a value that differs from the expected one: bold red.
	Bad = "\x1b[1;31m"
	// Reset ends every style.
	Reset = "\x1b[0m"

	// ClearScreen moves the cursor home and erases the screen.
	ClearScreen = "\x1b[H\x1b[2J"
	// ClearDown erases from the cursor to the end of the screen, for
	// lines that are rewritten in place.
	ClearDown = "\x1b[J"
	// CursorUp, with the number of lines, moves the cursor up (a format
	// for fmt.Sprintf).
	CursorUp = "\x1b[%dA"
)

// offs pairs each style that wrapping carries across lines with the code
// that ends it.
var offs = map[string]string{Bold: BoldOff, Italic: ItalicOff, Underline: UnderlineOff, Strike: StrikeOff, Cyan: ColorOff, Reverse: ReverseOff}

// Style returns s between on and off when color is set, else s.
func Style(color bool, on, s, off string) string {
	if !color || s == "" {
		return s
	}
	return on + s + off
}

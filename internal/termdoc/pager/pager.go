// Package pager shows a document rendered by termdoc in a terminal, a
// screen at a time: scrolling, a table of contents to jump to a section
// from, search, and q to quit. It is a bubbletea model over a bubbles
// viewport; the document is rendered again whenever the window's width
// changes, so that text and tables always fit.
package pager

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/kurs-course/kurs/internal/term"
	"github.com/kurs-course/kurs/internal/termdoc"
)

// Labels are the words the pager shows, in the reader's language.
type Labels struct {
	Help         string // the status line's keys while reading
	Contents     string // the title of the table of contents
	ContentsHelp string // the status line's keys in the table of contents
	Search       string // the search prompt, such as "Search: "
	NotFound     string // the status when a search finds nothing
}

// RenderFunc renders the document for a window width, as termdoc.Lines
// does.
type RenderFunc func(width int) ([]string, []termdoc.Heading)

type mode int

const (
	reading mode = iota
	contents
	searching
)

// Model is the pager's state. Create it with New and run it with
// tea.NewProgram, or drive it with messages in a test.
type Model struct {
	render RenderFunc
	labels Labels

	width, height int
	lines         []string // as rendered, perhaps with colours
	plain         []string // lower case and without styles, for search
	heads         []termdoc.Heading
	view          viewport.Model

	mode    mode
	cursor  int // the selected entry of the table of contents
	input   textinput.Model
	query   string // the last search's text, lower case
	matches []int  // lines that hold it
	match   int    // the index in matches of the line shown
	status  string
}

// New returns a pager for the document that render draws; it shows
// nothing until it gets the window's size (a tea.WindowSizeMsg, which
// bubbletea sends at the start).
func New(render RenderFunc, labels Labels) *Model {
	in := textinput.New()
	in.Prompt = labels.Search
	return &Model{render: render, labels: labels, view: viewport.New(), input: in}
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m, nil
	case tea.KeyPressMsg:
		switch m.mode {
		case contents:
			return m, m.contentsKey(msg)
		case searching:
			return m, m.searchKey(msg)
		}
		return m, m.readingKey(msg)
	}
	var cmd tea.Cmd
	m.view, cmd = m.view.Update(msg)
	return m, cmd
}

// resize renders the document for the new width and keeps the reader in
// the same section, at the same distance from its heading.
func (m *Model) resize(width, height int) {
	top, within := -1, m.view.YOffset()
	for i, h := range m.sections() {
		if h.Line <= m.view.YOffset() {
			top, within = i, m.view.YOffset()-h.Line
		}
	}
	if width != m.width || m.lines == nil {
		m.lines, m.heads = m.render(width)
		m.plain = make([]string, len(m.lines))
		for i, l := range m.lines {
			m.plain[i] = strings.ToLower(ansi.Strip(l))
		}
		m.view.SetContentLines(m.lines)
		m.matches = nil
	}
	m.width, m.height = width, height
	m.view.SetWidth(width)
	m.view.SetHeight(max(height-1, 1))
	m.input.SetWidth(max(width-ansi.StringWidth(m.labels.Search)-1, 1))
	if s := m.sections(); top >= 0 && top < len(s) {
		m.view.SetYOffset(s[top].Line + within)
	}
}

// sections are the headings the table of contents lists: all but the
// document's title.
func (m *Model) sections() []termdoc.Heading {
	var out []termdoc.Heading
	for _, h := range m.heads {
		if h.Level > 1 {
			out = append(out, h)
		}
	}
	return out
}

func (m *Model) readingKey(msg tea.KeyPressMsg) tea.Cmd {
	m.status = ""
	switch msg.String() {
	case "q", "ctrl+c":
		return tea.Quit
	case "t":
		m.mode = contents
		m.cursor = 0
		for i, h := range m.sections() {
			if h.Line <= m.view.YOffset() {
				m.cursor = i
			}
		}
	case "/":
		m.mode = searching
		m.input.Reset()
		return m.input.Focus()
	case "n":
		m.step(1)
	case "N":
		m.step(-1)
	case "]":
		for _, h := range m.sections() {
			if h.Line > m.view.YOffset() {
				m.view.SetYOffset(h.Line)
				break
			}
		}
	case "[":
		s := m.sections()
		for i := len(s) - 1; i >= 0; i-- {
			if s[i].Line < m.view.YOffset() {
				m.view.SetYOffset(s[i].Line)
				break
			}
		}
	case "g", "home":
		m.view.GotoTop()
	case "G", "end":
		m.view.GotoBottom()
	default:
		var cmd tea.Cmd
		m.view, cmd = m.view.Update(msg)
		return cmd
	}
	return nil
}

func (m *Model) contentsKey(msg tea.KeyPressMsg) tea.Cmd {
	s := m.sections()
	switch msg.String() {
	case "ctrl+c":
		return tea.Quit
	case "q", "esc", "t":
		m.mode = reading
	case "up", "k":
		m.cursor = max(m.cursor-1, 0)
	case "down", "j":
		m.cursor = min(m.cursor+1, len(s)-1)
	case "home", "g":
		m.cursor = 0
	case "end", "G":
		m.cursor = len(s) - 1
	case "enter", "space":
		if m.cursor >= 0 && m.cursor < len(s) {
			m.view.SetYOffset(s[m.cursor].Line)
		}
		m.mode = reading
	}
	return nil
}

func (m *Model) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "ctrl+c":
		return tea.Quit
	case "esc":
		m.mode = reading
		m.input.Blur()
		return nil
	case "enter":
		m.mode = reading
		m.input.Blur()
		m.search(m.input.Value())
		return nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return cmd
}

// search finds the lines that hold q, ignoring case, and shows the first
// at or after the top of the screen.
func (m *Model) search(q string) {
	q = strings.ToLower(strings.TrimSpace(q))
	m.query, m.matches, m.match = q, nil, 0
	m.view.SetContentLines(m.lines)
	if q == "" {
		return
	}
	for i, l := range m.plain {
		if strings.Contains(l, q) {
			m.matches = append(m.matches, i)
		}
	}
	if len(m.matches) == 0 {
		m.status = m.labels.NotFound
		return
	}
	m.match = -1
	for i, line := range m.matches {
		if line >= m.view.YOffset() {
			m.match = i - 1
			break
		}
	}
	m.step(1) // the first at or after the top, else the first of all
}

// step shows the next (1) or previous (-1) line of the last search.
func (m *Model) step(dir int) {
	if len(m.matches) == 0 {
		return
	}
	m.match = (m.match + dir + len(m.matches)) % len(m.matches)
	i := m.matches[m.match]
	lines := slices.Clone(m.lines)
	lines[i] = markMatch(m.lines[i], m.plain[i], m.query)
	m.view.SetContentLines(lines)
	m.view.SetYOffset(i)
	m.status = fmt.Sprintf("%d/%d", m.match+1, len(m.matches))
}

// markMatch shows the first q in line, whose lower-case text without
// styles is plain, in reverse video: the match the pager jumped to stands
// out in its line, with colours or without.
func markMatch(line, plain, q string) string {
	at := strings.Index(plain, q)
	if at < 0 {
		return line
	}
	from := term.Width(plain[:at])
	to := from + term.Width(q)
	return ansi.Cut(line, 0, from) + term.Reverse + ansi.Cut(line, from, to) + term.ReverseOff + ansi.TruncateLeft(line, to, "")
}

// View implements tea.Model.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Screen())
	v.AltScreen = true
	return v
}

// Screen returns what the pager shows: the document, or the table of
// contents, and a status line.
func (m *Model) Screen() string {
	if m.width == 0 {
		return ""
	}
	var body string
	var status string
	switch m.mode {
	case contents:
		body, status = m.contentsView(), m.labels.ContentsHelp
	case searching:
		body, status = m.view.View(), m.input.View()
	default:
		body, status = m.view.View(), m.labels.Help
		percent := fmt.Sprintf("%3.0f%%", m.view.ScrollPercent()*100)
		if m.status != "" {
			percent = m.status + "  " + percent
		}
		status = fitStatus(status, percent, m.width)
	}
	return body + "\n" + ansi.Truncate(status, m.width, "…")
}

// fitStatus puts right at the right end of the line and left before it.
// When left, a list of keys such as "t contents · / search · q quit", is
// too long, it drops whole keys from the end of the list but the last,
// which says how to quit; only what is still too long is cut.
func fitStatus(left, right string, width int) string {
	room := width - ansi.StringWidth(right) - 1
	if room < 1 {
		return right
	}
	keys := strings.Split(left, keySep)
	for len(keys) > 2 && ansi.StringWidth(strings.Join(keys, keySep)) > room {
		keys = append(keys[:len(keys)-2], keys[len(keys)-1])
	}
	left = ansi.Truncate(strings.Join(keys, keySep), room, "…")
	return left + strings.Repeat(" ", width-ansi.StringWidth(left)-ansi.StringWidth(right)) + right
}

// keySep separates the keys of a status line.
const keySep = " · "

// contentsView lists the sections, the selected one marked, scrolled so
// that it is on screen.
func (m *Model) contentsView() string {
	s := m.sections()
	rows := max(m.height-1, 1)
	lines := []string{m.labels.Contents, ""}
	first := max(0, m.cursor-(rows-len(lines))+1)
	for i := first; i < len(s) && len(lines) < rows; i++ {
		mark := "  "
		if i == m.cursor {
			mark = "▸ "
		}
		indent := strings.Repeat("  ", max(s[i].Level-2, 0))
		lines = append(lines, ansi.Truncate(mark+indent+s[i].Title, m.width, "…"))
	}
	for len(lines) < rows {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

package pager

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/termdoc"
)

// doc is a lesson of three sections, long enough to need scrolling.
func doc() []byte {
	var b strings.Builder
	b.WriteString("# The lesson\n\nIntro.\n\n")
	for i, name := range []string{"Concept", "Pitfalls", "Exercises"} {
		fmt.Fprintf(&b, "## %s\n\n", name)
		for j := range 12 {
			fmt.Fprintf(&b, "Paragraph %d of section %d.\n\n", j, i+1)
		}
		if name == "Pitfalls" {
			b.WriteString("A probe whose result is never reported keeps the breaker half_open.\n\n")
		}
	}
	return []byte(b.String())
}

var labels = Labels{
	Help:         "t contents · / search · q quit",
	Contents:     "Contents",
	ContentsHelp: "Enter go there · Esc back",
	Search:       "Search: ",
	NotFound:     "Not found",
}

func newPager(t *testing.T, width, height int) *Model {
	t.Helper()
	src := doc()
	m := New(func(w int) ([]string, []termdoc.Heading) {
		return termdoc.Lines(src, termdoc.Options{Width: w})
	}, labels)
	send(t, m, tea.WindowSizeMsg{Width: width, Height: height})
	return m
}

func send(t *testing.T, m *Model, msgs ...tea.Msg) tea.Cmd {
	t.Helper()
	var cmd tea.Cmd
	for _, msg := range msgs {
		_, cmd = m.Update(msg)
	}
	return cmd
}

// keys turns "t", "enter", "down" and so on into key presses.
func keys(names ...string) []tea.Msg {
	special := map[string]rune{"enter": tea.KeyEnter, "down": tea.KeyDown, "up": tea.KeyUp, "esc": tea.KeyEscape}
	var out []tea.Msg
	for _, n := range names {
		if code, ok := special[n]; ok {
			out = append(out, tea.KeyPressMsg{Code: code})
			continue
		}
		for _, r := range n {
			out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
		}
	}
	return out
}

// screen returns the lines the pager shows, without styles and trailing
// spaces.
func screen(m *Model) []string {
	lines := strings.Split(ansi.Strip(m.Screen()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

func TestPagerShowsAScreenAndItsHelp(t *testing.T) {
	m := newPager(t, 40, 10)
	s := screen(m)
	require.Len(t, s, 10)
	assert.Equal(t, "The lesson", strings.TrimSpace(s[0]))
	assert.True(t, strings.HasPrefix(s[9], "t contents · / search · q quit"), "%q", s[9])
	assert.True(t, strings.HasSuffix(s[9], "0%"), "%q", s[9])
	for _, l := range s {
		assert.LessOrEqual(t, len([]rune(l)), 40, "%q", l)
	}
}

func TestPagerContentsJumpsToASection(t *testing.T) {
	m := newPager(t, 40, 10)
	send(t, m, keys("t")...)
	s := screen(m)
	assert.Equal(t, "Contents", s[0])
	assert.Equal(t, "▸ Concept", s[2], "the section being read is selected")
	assert.Equal(t, "  Pitfalls", s[3])
	assert.Equal(t, "  Exercises", s[4])
	assert.Equal(t, "Enter go there · Esc back", s[9])

	send(t, m, keys("down", "enter")...)
	s = screen(m)
	assert.Equal(t, "Pitfalls", strings.TrimSpace(s[0]), "the chosen section is at the top")

	// Esc leaves the contents where the reader was.
	send(t, m, keys("t", "down", "esc")...)
	assert.Equal(t, "Pitfalls", strings.TrimSpace(screen(m)[0]))

	// ] and [ go to the next and previous section.
	send(t, m, keys("]")...)
	assert.Equal(t, "Exercises", strings.TrimSpace(screen(m)[0]))
	send(t, m, keys("[", "[")...)
	assert.Equal(t, "Concept", strings.TrimSpace(screen(m)[0]))
}

func TestPagerSearch(t *testing.T) {
	m := newPager(t, 40, 10)
	send(t, m, keys("/")...)
	send(t, m, keys("section 2.")...)
	assert.Equal(t, "Search: section 2.", screen(m)[9], "the prompt shows what is typed")
	send(t, m, keys("enter")...)
	s := screen(m)
	assert.Equal(t, "Paragraph 0 of section 2.", s[0], "the first match is at the top")
	assert.Contains(t, s[9], "1/12")

	send(t, m, keys("n")...)
	assert.Equal(t, "Paragraph 1 of section 2.", screen(m)[0])
	assert.Contains(t, screen(m)[9], "2/12")
	send(t, m, keys("N", "N")...)
	assert.Equal(t, "Paragraph 11 of section 2.", screen(m)[0], "N goes back, round to the last")

	// Case does not matter; a search starts from the top of the screen.
	send(t, m, keys("g", "/", "HALF_OPEN", "enter")...)
	assert.Contains(t, screen(m)[0], "half_open")

	send(t, m, keys("/", "no such words", "enter")...)
	assert.Contains(t, screen(m)[9], "Not found")

	// Esc cancels a search being typed.
	send(t, m, keys("g", "/", "Exercises", "esc")...)
	assert.Equal(t, "The lesson", strings.TrimSpace(screen(m)[0]))
}

// TestPagerMarksMatch: the match the search jumped to is shown in reverse
// video, and only that one, so the eye finds it in its line.
func TestPagerMarksMatch(t *testing.T) {
	m := newPager(t, 40, 10)
	send(t, m, keys("/", "Of Section 2", "enter")...)
	raw := strings.Split(m.Screen(), "\n")
	assert.Equal(t, "Paragraph 0 \x1b[7mof section 2\x1b[27m.", strings.TrimRight(raw[0], " "))
	assert.NotContains(t, strings.Join(raw[1:], "\n"), "\x1b[7m", "only the match jumped to is marked")
	send(t, m, keys("n")...)
	raw = strings.Split(m.Screen(), "\n")
	assert.Equal(t, "Paragraph 1 \x1b[7mof section 2\x1b[27m.", strings.TrimRight(raw[0], " "), "n moves the mark")
	assert.Equal(t, 1, strings.Count(m.Screen(), "\x1b[7m"))

	// In a styled line the mark keeps the styles around it.
	got := markMatch("\x1b[1mHello wor\x1b[22m", "hello wor", "llo")
	assert.Equal(t, "Hello wor", ansi.Strip(got))
	assert.Contains(t, got, "\x1b[7m\x1b[1mllo\x1b[22m\x1b[27m")
}

func TestPagerQuits(t *testing.T) {
	m := newPager(t, 40, 10)
	cmd := send(t, m, keys("q")...)
	require.NotNil(t, cmd)
	assert.IsType(t, tea.QuitMsg{}, cmd())

	// In the contents and the search prompt, q is a letter like others
	// but Ctrl+C still quits.
	m = newPager(t, 40, 10)
	assert.Nil(t, send(t, m, keys("t", "q")...))
	cmd = send(t, m, keys("/", "q")...)
	if cmd != nil {
		assert.NotEqual(t, tea.QuitMsg{}, cmd())
	}
	cmd = send(t, m, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	require.NotNil(t, cmd)
	assert.IsType(t, tea.QuitMsg{}, cmd())
}

// A narrower window renders the lesson again to fit and keeps the reader
// in the section they were reading.
func TestPagerResize(t *testing.T) {
	m := newPager(t, 60, 10)
	send(t, m, keys("]", "]")...)
	require.Equal(t, "Pitfalls", strings.TrimSpace(screen(m)[0]))
	send(t, m, tea.WindowSizeMsg{Width: 30, Height: 8})
	s := screen(m)
	require.Len(t, s, 8)
	assert.Equal(t, "Pitfalls", strings.TrimSpace(s[0]))
	for _, l := range s {
		assert.LessOrEqual(t, len([]rune(l)), 30, "%q", l)
	}
}

// The status line fits 80 and 100 columns in both languages and always
// says how to quit: keys are dropped whole, never cut in the middle.
func TestStatusFitsAndKeepsQuit(t *testing.T) {
	for _, lang := range []string{"en", "de"} {
		help := i18n.New(lang).T("lesson.pager.help")
		quit := help[strings.LastIndex(help, keySep)+len(keySep):]
		for _, width := range []int{60, 80, 100, 200} {
			line := fitStatus(help, "  42%", width)
			assert.LessOrEqual(t, ansi.StringWidth(line), width, "%s at %d", lang, width)
			assert.Contains(t, line, quit, "%s at %d: %q", lang, width, line)
			assert.NotContains(t, line, "…", "%s at %d: %q", lang, width, line)
			assert.True(t, strings.HasSuffix(line, "42%"), "%q", line)
		}
		assert.Contains(t, fitStatus(help, " 1%", 200), help, "all keys when there is room")
	}
}

package term

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestWidthCountsWhatTheTerminalDraws(t *testing.T) {
	assert.Equal(t, 1, Width("·"))
	assert.Equal(t, 1, Width("✓"))
	assert.Equal(t, 1, Width("✗"))
	assert.Equal(t, 5, Width("Größe"))
	assert.Equal(t, 5, Width("Gro\u0308ße"), "a combining diaeresis takes no column of its own")
	assert.Equal(t, 3, Width(Bold+"abc"+BoldOff), "escape sequences take none")
}

func TestPipeGetsPlainWholeLines(t *testing.T) {
	var b bytes.Buffer
	tm := New(&b, env("COLUMNS", "30", "NO_COLOR", ""))
	assert.False(t, tm.IsTerminal())
	assert.False(t, tm.Color())
	assert.Equal(t, 30, tm.Width(), "COLUMNS lays out a pipe's tables")
	assert.Equal(t, 0, tm.TextWidth(), "prose in a pipe stays whole")
	long := strings.Repeat("Wort ", 40)
	tm.Println(long)
	assert.Equal(t, long+"\n", b.String())
	tm.Status("halfway")
	tm.ClearStatus()
	assert.Equal(t, long+"\nhalfway\n", b.String(), "a status is a line of its own, nothing erased")
	assert.Empty(t, tm.Clear())
}

func TestFitBreaksAtSpacesOnly(t *testing.T) {
	s := "  Prüfe die Übung mit „kurs check“ – die Ausgabe nennt jeden fehlschlagenden Schritt · ✓ ✗ und die Erklärung dazu."
	for _, width := range []int{30, 41, 60} {
		got := Fit(s, width)
		for _, l := range strings.Split(got, "\n") {
			assert.LessOrEqual(t, Width(l), width, "%q", l)
			assert.True(t, strings.HasPrefix(l, "  "), "further lines keep the indentation: %q", l)
		}
		assert.Equal(t, strings.Fields(s), strings.Fields(got), "no word broken at %d", width)
	}
	assert.Equal(t, s, Fit(s, 0))
	assert.Equal(t, []string{"z. B. eine", "Zeile"}, Wrap("z. B. eine Zeile", 10), "an abbreviation stays whole")
}

func TestWrapKeepsAQuotedCommandWhole(t *testing.T) {
	s := "There is no workspace here. Create one with 'kurs init DIR', or name it with --workspace DIR."
	assert.Equal(t, []string{"There is no workspace here. Create one with", "'kurs init DIR', or name it with --workspace DIR."}, Wrap(s, 50))
	assert.Equal(t, []string{"Lege einen mit", "'kurs init VERZ' an."}, Wrap("Lege einen mit 'kurs init VERZ' an.", 26))
	assert.Equal(t, []string{"Lege einen mit", "'kurs init", "VERZ' an."}, Wrap("Lege einen mit 'kurs init VERZ' an.", 14), "the quote fits no line: words as before")
	assert.Equal(t, []string{"the course's", "folder 'x'"}, Wrap("the course's folder 'x'", 12), "an apostrophe opens no quote")
	assert.Equal(t, []string{"run 'kurs", "hint x' or", "read on"}, Wrap("run 'kurs hint x' or read on", 10), "wider than the line: words as before")
}

func TestWrapBreaksALongIDAfterAHyphen(t *testing.T) {
	got := Wrap("Refused (concurrent/second-caller-during-failed-probe-is-refused)", 30)
	assert.Equal(t, []string{"Refused", "(concurrent/second-caller-", "during-failed-probe-is-", "refused)"}, got)
	assert.Equal(t, []string{"a", "unbreakablewordwiderthanthis", "b"}, Wrap("a unbreakablewordwiderthanthis b", 10), "no hyphen: a line of its own")
}

package cli

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/termdoc"
)

// TestHelpFitsTheWidth lays out kurs help and every verb's help at
// several widths, in both languages: no line is wider than the width,
// but for a word or argument longer than the room left for it.
func TestHelpFitsTheWidth(t *testing.T) {
	for _, lang := range i18n.Languages {
		for _, width := range []int{50, 60, 72, 80, 100} {
			for _, v := range append([]string{""}, verbNames()...) {
				args := []string{"help", "--lang", lang}
				if v != "" {
					args = append(args, v)
				}
				var out, errs bytes.Buffer
				getenv := func(k string) string {
					if k == "COLUMNS" {
						return strconv.Itoa(width)
					}
					return ""
				}
				code := Main(context.Background(), args, IO{Out: &out, Err: &errs, Getenv: getenv, Getwd: func() (string, error) { return t.TempDir(), nil }})
				if !assert.Equal(t, ExitOK, code, errs.String()) {
					continue
				}
				for _, l := range strings.Split(out.String(), "\n") {
					if termdoc.Width(l) <= width {
						continue
					}
					if len(termdoc.Words(l)) == 1 {
						continue // one word, alone on its line
					}
					t.Errorf("%s, %d columns, kurs help %s: %d columns:\n%s", lang, width, v, termdoc.Width(l), l)
				}
			}
		}
	}
}

// TestHelpBreaksACommandForTheShell breaks an example too wide for the
// width between its shell words, with a backslash, and a shell joining
// the lines gets the command as written.
func TestHelpBreaksACommandForTheShell(t *testing.T) {
	cmd := "  kurs try circuitbreaker 'New(3, 5) Failure(0) Failure(1) Allow(2)' --lang de"
	text := "Usage: kurs try\n\n" + cmd + "\n\nThe end."
	assert.Equal(t, "Usage: kurs try\n\n"+
		"  kurs try circuitbreaker \\\n"+
		"    'New(3, 5) Failure(0) Failure(1) Allow(2)' \\\n"+
		"    --lang de\n\nThe end.", layoutHelp(text, 50))
	assert.Equal(t, text, layoutHelp(text, 90))
	for _, width := range []int{30, 50, 60, 72} {
		joined := strings.ReplaceAll(layoutHelp(cmd, width), " \\\n    ", " ")
		assert.Equal(t, cmd, joined, "%d columns", width)
	}
}

// TestHelpBreaksAListAfterItsOperators breaks a list of commands too wide
// for the width after an "&&", never before it, and keeps each command
// whole on a line where it fits.
func TestHelpBreaksAListAfterItsOperators(t *testing.T) {
	list := "  kurs init kurs-workspace && cd kurs-workspace && kurs check"
	assert.Equal(t, "  kurs init kurs-workspace && cd kurs-workspace && \\\n"+
		"    kurs check", layoutHelp(list, 60))
	assert.Equal(t, "  kurs init kurs-workspace && \\\n"+
		"    cd kurs-workspace && kurs check", layoutHelp(list, 50))
	assert.Equal(t, list, layoutHelp(list, 61))
	for _, width := range []int{20, 30, 40, 50, 60} {
		out := layoutHelp(list, width)
		assert.NotRegexp(t, `(?m)^\s*(&&|\|\|)`, out, "%d columns", width)
		assert.Equal(t, list, strings.ReplaceAll(out, " \\\n    ", " "), "%d columns", width)
	}
}

func verbNames() []string {
	var names []string
	for _, v := range verbs() {
		names = append(names, v.name)
	}
	return names
}

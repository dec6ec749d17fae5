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
// but for an example to copy (an indented command line), which is never
// broken, and a word or argument longer than the room left for it.
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
					if termdoc.Width(l) <= width || strings.HasPrefix(l, "  kurs ") {
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

func verbNames() []string {
	var names []string
	for _, v := range verbs() {
		names = append(names, v.name)
	}
	return names
}

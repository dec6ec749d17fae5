package validate

import (
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/i18n"
)

// TestGlossary plants words a glossary replaces in a lesson, a task, a
// hidden test's title and a code span, and a glossary line without its
// arrow; it expects each word reported at its line with the course's
// term, the code span left alone, and the broken line reported.
func TestGlossary(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	m["lessons/glossary.de.txt"] = &fstest.MapFile{Data: []byte("# Begriffe\nService, Services -> Dienst\nMarke* -> Token\nkein Pfeil\n")}
	m["lessons/glossary.en.txt"] = &fstest.MapFile{Data: []byte("back-off -> backoff\n")}
	m["lessons/main/de.md"].Data = append(m["lessons/main/de.md"].Data, []byte("\nEin Service zählt Marken, aber `Service` im Code ist kein Text. Der Servicetechniker auch nicht.\n")...)
	m["lessons/main/en.md"].Data = append(m["lessons/main/en.md"].Data, []byte("\nA back-off of 2 ms; a backoff is fine.\n")...)
	m["exercises/clamp/task.de.md"].Data = append(m["exercises/clamp/task.de.md"].Data, []byte("\nJeder Services-Aufruf zählt.\n")...)
	m["lessons/glossary.en.txt"].Data = append(m["lessons/glossary.en.txt"].Data, []byte("two picks -> two choices\n")...)
	m["lessons/main/en.md"].Data = append(m["lessons/main/en.md"].Data, []byte("\nThe first of two\npicks wins.\n")...)
	got := textChecks(t, m)
	last := func(file string, before int) string { // a line appended, counted from the last
		return file + ":" + strconv.Itoa(strings.Count(string(m[file].Data), "\n")-before)
	}
	de, task := last("lessons/main/de.md", 0), last("exercises/clamp/task.de.md", 0)
	en, split := last("lessons/main/en.md", 3), last("lessons/main/en.md", 1)
	assert.Contains(t, got, "lessons/glossary.de.txt:4 glossary_file Text=kein Pfeil")
	assert.Contains(t, got, de+" glossary Word=Service Term=Dienst Glossary=lessons/glossary.de.txt")
	assert.Contains(t, got, de+" glossary Word=Marken Term=Token Glossary=lessons/glossary.de.txt")
	assert.Contains(t, got, task+" glossary Word=Services Term=Dienst Glossary=lessons/glossary.de.txt")
	assert.Contains(t, got, en+" glossary Word=back-off Term=backoff Glossary=lessons/glossary.en.txt")
	assert.Contains(t, got, split+" glossary Word=two picks Term=two choices Glossary=lessons/glossary.en.txt", "a phrase a line break splits")
	assert.Len(t, got, 6, "the code span and Servicetechniker are no findings: %q", got)

	for lang, want := range map[string]string{
		"de": "„Marken“: Der Kurs sagt „Token“ (lessons/glossary.de.txt)",
		"en": "“Marken”: the course says “Token” (lessons/glossary.de.txt)",
	} {
		assert.Equal(t, want, i18n.New(lang).T("validate.problem_glossary", "Word", "Marken", "Term", "Token", "Glossary", "lessons/glossary.de.txt"))
	}
}

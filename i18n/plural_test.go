package i18n

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// field finds the template fields a message fills in, such as {{.Count}}.
var field = regexp.MustCompile(`\{\{\s*\.([A-Za-z]+)\s*\}\}`)

// countedCall finds calls that pass a count: p.T("id", …, "Count", …) in Go
// and {{$.P.T "id" "Count" …}} in the page's templates.
// A call that builds its id from a prefix ("validate.progress_"+phase)
// counts for every message with that prefix.
var countedCall = regexp.MustCompile(`(?:\.T|usage|usageErr)\(?\s*"([a-z_]+\.[a-z_.]*)"(\s*\+)?[^\n]*"Count"`)

// TestEveryCountedMessageRenders renders every message that takes a count
// in both languages for 0, 1, 2 and 5. go-i18n picks the "one" form for 1
// and "other" for the rest in German and English; a message without the
// form it picks shows its raw key, as "[web.result.others]" did on the
// page whenever exactly one other test failed.
func TestEveryCountedMessageRenders(t *testing.T) {
	counted := map[string]bool{}
	ids, prefixes := countedInSource(t)
	for _, id := range ids {
		counted[id] = true
	}
	for _, lang := range Languages {
		texts := catalogTexts(t, lang)
		for id, text := range texts {
			if slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(id, p) }) ||
				strings.Contains(text, "\x00one") || slices.ContainsFunc(field.FindAllStringSubmatch(text, -1), func(m []string) bool { return m[1] == "Count" }) {
				counted[id] = true
			}
		}
		for id := range counted {
			text, ok := texts[id]
			if !ok {
				continue // TestEveryUsedMessageExists reports it
			}
			kv := []any{}
			for _, m := range field.FindAllStringSubmatch(text, -1) {
				if m[1] != "Count" {
					kv = append(kv, m[1], "x")
				}
			}
			for _, n := range []int{0, 1, 2, 5} {
				got := New(lang).T(id, append(slices.Clone(kv), "Count", n)...)
				assert.NotEqual(t, "["+id+"]", got, "%s: %s has no form for a count of %d", lang, id, n)
				assert.NotContains(t, got, "<no value>", "%s: %s with a count of %d", lang, id, n)
			}
		}
	}
	assert.Contains(t, counted, "web.result.others", "the scan found no counted message of the page")
}

// TestCountsReadRight pins the forms a learner sees most.
func TestCountsReadRight(t *testing.T) {
	en, de := New("en"), New("de")
	assert.Equal(t, "Also failing (1):", en.T("web.result.others", "Count", 1))
	assert.Equal(t, "Also failing (2):", en.T("web.result.others", "Count", 2))
	assert.Equal(t, "Ebenfalls nicht bestanden (1):", de.T("web.result.others", "Count", 1))
	assert.Equal(t, "Not run, because the program ended first (1):", en.T("web.result.not_run", "Count", 1))
}

// catalogTexts returns lang's messages by id; a plural message's forms are
// joined, followed by a mark per form ("\x00one") so the caller sees which
// forms it has.
func catalogTexts(t *testing.T, lang string) map[string]string {
	t.Helper()
	files, err := fs.Glob(catalogs, "messages/*."+lang+".toml")
	require.NoError(t, err)
	texts := map[string]string{}
	for _, name := range files {
		data, err := catalogs.ReadFile(name)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, toml.Unmarshal(data, &m), name)
		for id, v := range m {
			switch v := v.(type) {
			case string:
				texts[id] = v
			case map[string]any:
				var forms, marks []string
				for form, f := range v {
					forms = append(forms, fmt.Sprint(f))
					marks = append(marks, "\x00"+form)
				}
				texts[id] = strings.Join(forms, "\n") + strings.Join(marks, "")
			}
		}
	}
	return texts
}

// countedInSource returns the ids, and the prefixes of ids, that kurs's Go
// code and page templates pass a count to.
func countedInSource(t *testing.T) (ids, prefixes []string) {
	t.Helper()
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".html")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range countedCall.FindAllSubmatch(data, -1) {
			if len(m[2]) > 0 {
				prefixes = append(prefixes, string(m[1]))
			} else {
				ids = append(ids, string(m[1]))
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Contains(t, prefixes, "validate.progress_", "the scan found no id built from a prefix; has the calling convention changed?")
	return ids, prefixes
}

package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCatalogsMatch makes sure every message exists in both languages.
func TestCatalogsMatch(t *testing.T) {
	de, err := Keys("de")
	require.NoError(t, err)
	en, err := Keys("en")
	require.NoError(t, err)
	assert.Equal(t, en, de, "the de and en catalogs must have the same keys")
	assert.Equal(t, slices.Compact(slices.Clone(en)), en, "a key is defined twice; the later file would silently win")
}

// usedID finds message ids in calls such as p.T("id", …), e.usage("id") or
// e.usageErr("id").
var usedID = regexp.MustCompile(`(?:\.T|usage|usageErr)\("([a-z_]+\.[a-z_.]+)"\s*[,)]`)

// prefixed finds ids built from a prefix, such as "problem."+kind.
var prefixed = regexp.MustCompile(`(?:\.T|usage|usageErr)\("([a-z_]+\.[a-z_.]*)"\s*\+`)

// TestEveryUsedMessageExists scans kurs's source for message ids and checks
// both catalogs have them, so a missing key fails here, not in front of a
// learner.
func TestEveryUsedMessageExists(t *testing.T) {
	var ids, prefixes []string
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range usedID.FindAllSubmatch(data, -1) {
			ids = append(ids, string(m[1]))
		}
		for _, m := range prefixed.FindAllSubmatch(data, -1) {
			prefixes = append(prefixes, string(m[1]))
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, ids, "the scan found no message ids; has the calling convention changed?")
	for _, lang := range Languages {
		keys, err := Keys(lang)
		require.NoError(t, err)
		for _, id := range ids {
			assert.Contains(t, keys, id, "%s.toml lacks %s", lang, id)
		}
		for _, p := range prefixes {
			assert.True(t, slices.ContainsFunc(keys, func(k string) bool { return strings.HasPrefix(k, p) }), "%s.toml has no %s* message", lang, p)
		}
	}
}

func TestPrinterFillsIn(t *testing.T) {
	assert.Equal(t, "Hint 2 of 5 for circuitbreaker:", New("en").T("hint.header", "N", 2, "Total", 5, "Exercise", "circuitbreaker"))
	assert.Equal(t, "Hinweis 2 von 5 zu circuitbreaker:", New("de").T("hint.header", "N", 2, "Total", 5, "Exercise", "circuitbreaker"))
	assert.Equal(t, "[no.such.key]", New("en").T("no.such.key"))
	assert.Equal(t, "en", New("fr").Lang(), "an unknown language falls back to English")
}

func TestChoose(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name, flag, ws string
		env            func(string) string
		want           string
	}{
		{"nothing set", "", "", env(), "en"},
		{"flag wins", "de", "en", env("KURS_LANG", "en", "LANG", "en_US.UTF-8"), "de"},
		{"KURS_LANG before workspace", "", "en", env("KURS_LANG", "de"), "de"},
		{"workspace before locale", "", "de", env("LANG", "en_US.UTF-8"), "de"},
		{"LANG", "", "", env("LANG", "de_DE.UTF-8"), "de"},
		{"LC_ALL before LANG", "", "", env("LC_ALL", "de_AT", "LANG", "en_US"), "de"},
		{"LC_MESSAGES before LANG", "", "", env("LC_MESSAGES", "en_GB", "LANG", "de_DE"), "en"},
		{"unspoken locale means English", "", "", env("LC_ALL", "fr_FR.UTF-8", "LANG", "de_DE"), "en"},
		{"C locale means English", "", "", env("LANG", "C.UTF-8"), "en"},
		{"bad KURS_LANG is ignored", "", "", env("KURS_LANG", "xx", "LANG", "de_CH.UTF-8"), "de"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Choose(tt.flag, tt.ws, tt.env))
		})
	}
}

// BenchmarkT is one message of the web UI, as a page of results asks for
// dozens: go test -bench T ./i18n.
func BenchmarkT(b *testing.B) {
	p := New("de")
	for b.Loop() {
		if s := p.T("web.trace.earlier", "Count", 3); strings.HasPrefix(s, "[") {
			b.Fatal(s)
		}
	}
}

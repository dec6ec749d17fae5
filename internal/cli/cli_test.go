package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
)

// TestEveryVerbHasHelp makes sure `kurs help VERB` explains every verb in
// both languages.
func TestEveryVerbHasHelp(t *testing.T) {
	for _, lang := range i18n.Languages {
		keys, err := i18n.Keys(lang)
		require.NoError(t, err)
		for _, v := range verbs() {
			assert.Contains(t, keys, "help."+v.name, "%s: kurs help %s", lang, v.name)
			assert.Contains(t, keys, "verb."+v.name, "%s: kurs help lists %s", lang, v.name)
		}
	}
}

func TestPeekGlobals(t *testing.T) {
	g, rest := peekGlobals([]string{"--lang", "de", "--workspace", "ws", "check", "circuitbreaker", "-v"})
	assert.Equal(t, "de", g.lang)
	assert.Equal(t, []string{"check", "--lang", "de", "--workspace", "ws", "circuitbreaker", "-v"}, rest)
	g, rest = peekGlobals([]string{"init", "ws", "--lang=en"})
	assert.Equal(t, "en", g.lang)
	assert.Equal(t, []string{"init", "ws", "--lang=en"}, rest)
}

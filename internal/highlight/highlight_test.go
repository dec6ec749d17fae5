package highlight

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The copy of the Go lexer tokenises the course's Go code as chroma's
// does, raw strings apart (chroma lexes them as Go templates).
func TestGoLexerIsChromas(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../../exercises", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil || bytes.ContainsRune(src, '`') {
			return err
		}
		n++
		assert.Equal(t, tokens(t, lexers.Get("go"), string(src)), tokens(t, Lexer("go"), string(src)), p)
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, n, 20, "Go files compared")
	assert.Nil(t, Lexer("python"))
	assert.NotNil(t, Lexer("Golang"))
}

func tokens(t *testing.T, l chroma.Lexer, src string) []chroma.Token {
	t.Helper()
	it, err := chroma.Coalesce(l).Tokenise(nil, src)
	require.NoError(t, err)
	return it.Tokens()
}

// The styles are chroma's: the same stylesheet.
func TestStylesAreChromas(t *testing.T) {
	for _, name := range []string{"github", "pygments"} {
		assert.Equal(t, css(t, styles.Get(name)), css(t, Style(name)), name)
	}
}

func css(t *testing.T, s *chroma.Style) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, chromahtml.New(chromahtml.WithClasses(true)).WriteCSS(&b, s))
	return b.String()
}

package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"text/template"
	tparse "text/template/parse"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProblemLinesStartLowerCase holds kurs validate's problem lines to
// one rule in both languages: after "FILE:LINE: " the message goes on in
// lower case, as kurs's other "kurs: …" lines do, so a German message
// opens with an article or a preposition rather than a noun. A message
// may open with a value instead: a quoted key, a number, a name.
func TestProblemLinesStartLowerCase(t *testing.T) {
	files, err := filepath.Glob("../../i18n/messages/*.toml")
	require.NoError(t, err)
	checked := 0
	for _, f := range files {
		var cat map[string]any
		_, err := toml.DecodeFile(f, &cat)
		require.NoError(t, err)
		for id, v := range cat {
			if !strings.HasPrefix(id, "validate.problem_") {
				continue
			}
			forms := []string{}
			switch v := v.(type) {
			case string:
				forms = append(forms, v)
			case map[string]any: // a plural table: one, other
				for _, s := range v {
					forms = append(forms, s.(string))
				}
			}
			for _, s := range forms {
				tmpl, err := template.New(id).Parse(s)
				require.NoError(t, err, "%s %s", filepath.Base(f), id)
				for _, text := range openings(tmpl.Root.Nodes) {
					r, _ := utf8.DecodeRuneInString(strings.TrimLeft(text, " "))
					assert.False(t, unicode.IsUpper(r), "%s %s starts in upper case: %q", filepath.Base(f), id, s)
				}
				checked++
			}
		}
	}
	require.Greater(t, checked, 100, "the scan found too few problem messages")
}

// openings returns the texts a template made of nodes may start with:
// one for each branch of a leading if. A template that opens with a
// value has none.
func openings(nodes []tparse.Node) []string {
	if len(nodes) == 0 {
		return nil
	}
	switch n := nodes[0].(type) {
	case *tparse.TextNode:
		if strings.TrimSpace(string(n.Text)) == "" {
			return openings(nodes[1:])
		}
		return []string{string(n.Text)}
	case *tparse.IfNode:
		out := openings(n.List.Nodes)
		if n.ElseList != nil {
			return append(out, openings(n.ElseList.Nodes)...)
		}
		return append(out, openings(nodes[1:])...)
	}
	return nil
}

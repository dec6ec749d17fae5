// Package highlight gives kurs's two front ends the one lexer and the two
// styles they highlight code with, built on first use.
//
// chroma's lexers and styles packages build every one of their hundreds of
// lexers and styles when a program starts, which made every start of kurs
// (the launcher of each check included) pay for them, whatever the verb.
// The course highlights only Go, so this package holds a copy of chroma's
// Go lexer and of the two styles used (chroma's licence:
// CHROMA-LICENSE.txt), and builds each the first time it is asked for.
package highlight

import (
	"bytes"
	"embed"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed github.xml pygments.xml
var styleFS embed.FS

// Lexer returns the lexer for a code block's language ("go"), or nil for
// a language the course does not highlight.
func Lexer(lang string) chroma.Lexer {
	switch strings.ToLower(lang) {
	case "go", "golang":
		return goLexer()
	}
	return nil
}

// Style returns the style "github" (pages) or "pygments" (the terminal);
// any other name gets github.
func Style(name string) *chroma.Style {
	if name == "pygments" {
		return pygments()
	}
	return github()
}

var (
	goLexer = sync.OnceValue(func() chroma.Lexer {
		return chroma.MustNewLexer(&chroma.Config{Name: "Go", Aliases: []string{"go", "golang"}}, goRules)
	})
	github   = sync.OnceValue(func() *chroma.Style { return style("github.xml") })
	pygments = sync.OnceValue(func() *chroma.Style { return style("pygments.xml") })
)

// style parses an embedded style; the files are part of kurs, so a
// mistake in one is a bug that the tests find.
func style(name string) *chroma.Style {
	data, err := styleFS.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return chroma.MustNewXMLStyle(bytes.NewReader(data))
}

// goRules are chroma's Go rules (lexers/go.go of chroma v2.27.0), with raw
// strings as plain strings: chroma lexes them as Go templates, which would
// bring in its lexer registry.
func goRules() chroma.Rules {
	return chroma.Rules{
		"root": {
			{Pattern: `\n`, Type: chroma.TextWhitespace},
			{Pattern: `\s+`, Type: chroma.TextWhitespace},
			{Pattern: `//[^\s\n\r][^\n\r]*`, Type: chroma.CommentPreproc},
			{Pattern: `//[^\n\r]*`, Type: chroma.CommentSingle},
			{Pattern: `/(\\\n)?[*](.|\n)*?[*](\\\n)?/`, Type: chroma.CommentMultiline},
			{Pattern: `(import|package)\b`, Type: chroma.KeywordNamespace},
			{Pattern: `(var|func|struct|map|chan|type|interface|const)\b`, Type: chroma.KeywordDeclaration},
			{Pattern: chroma.Words(``, `\b`, `break`, `default`, `select`, `case`, `defer`, `go`, `else`, `goto`, `switch`, `fallthrough`, `if`, `range`, `continue`, `for`, `return`), Type: chroma.Keyword},
			{Pattern: `(true|false|iota|nil)\b`, Type: chroma.KeywordConstant},
			{Pattern: chroma.Words(``, `\b(\()`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `print`, `println`, `panic`, `recover`, `close`, `complex`, `real`, `imag`, `len`, `cap`, `append`, `copy`, `delete`, `new`, `make`, `clear`, `min`, `max`), Type: chroma.ByGroups(chroma.NameBuiltin, chroma.Punctuation)},
			{Pattern: chroma.Words(``, `\b`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `any`), Type: chroma.KeywordType},
			{Pattern: `\d+i`, Type: chroma.LiteralNumber},
			{Pattern: `\d+\.\d*([Ee][-+]\d+)?i`, Type: chroma.LiteralNumber},
			{Pattern: `\.\d+([Ee][-+]\d+)?i`, Type: chroma.LiteralNumber},
			{Pattern: `\d+[Ee][-+]\d+i`, Type: chroma.LiteralNumber},
			{Pattern: `\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)`, Type: chroma.LiteralNumberFloat},
			{Pattern: `\.\d+([eE][+\-]?\d+)?`, Type: chroma.LiteralNumberFloat},
			{Pattern: `0[0-7]+`, Type: chroma.LiteralNumberOct},
			{Pattern: `0[xX][0-9a-fA-F_]+`, Type: chroma.LiteralNumberHex},
			{Pattern: `0b[01_]+`, Type: chroma.LiteralNumberBin},
			{Pattern: `(0|[1-9][0-9_]*)`, Type: chroma.LiteralNumberInteger},
			{Pattern: `'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'`, Type: chroma.LiteralStringChar},
			{Pattern: "`[^`]*`", Type: chroma.LiteralString},
			{Pattern: `"(\\\\|\\"|[^"])*"`, Type: chroma.LiteralString},
			{Pattern: `(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])`, Type: chroma.Operator},
			{Pattern: `([a-zA-Z_]\w*)(\s*)(\()`, Type: chroma.ByGroups(chroma.NameFunction, chroma.UsingSelf("root"), chroma.Punctuation)},
			{Pattern: `[|^<>=!()\[\]{}.,;:~]`, Type: chroma.Punctuation},
			{Pattern: `[^\W\d]\w*`, Type: chroma.NameOther},
		},
	}
}

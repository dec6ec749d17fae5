package web

import (
	"bytes"
	"fmt"
	"html/template"
	"strconv"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark"
	highlighting "github.com/yuin/goldmark-highlighting/v2"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/mermaid"
)

// codeStyle is the chroma style of highlighted code; the page links its CSS
// (see codeCSS) so that the HTML carries classes, not inline colours.
const codeStyle = "github"

// markdown renders course texts. One goldmark.Markdown is built at start-up
// and reused: it is safe for concurrent use.
type markdown struct{ md goldmark.Markdown }

func newMarkdown() *markdown {
	return &markdown{md: goldmark.New(
		goldmark.WithExtensions(
			extension.GFM, // tables, strikethrough, autolinks, task lists
			highlighting.NewHighlighting(
				highlighting.WithStyle(codeStyle),
				highlighting.WithFormatOptions(chromahtml.WithClasses(true)),
			),
			// Client mode emits <pre class="mermaid"> and, with NoScript,
			// no <script> pointing at a CDN: the page loads the bundled
			// copy itself, so lessons render offline.
			&mermaid.Extender{RenderMode: mermaid.RenderModeClient, NoScript: true},
		),
		goldmark.WithParserOptions(
			parser.WithASTTransformers(util.Prioritized(sectionIDs{}, 100)),
		),
		// Raw HTML stays off (goldmark's default): a course from --course
		// is text, not code that runs in the learner's browser.
	)}
}

// render converts Markdown to HTML that is safe to put into a page.
func (m *markdown) render(src string) (template.HTML, error) {
	var b bytes.Buffer
	if err := m.md.Convert([]byte(src), &b); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

// sectionIDs numbers the headings of a text: s1, s2, …. The German and the
// English lesson have the same structure, so the same number is the same
// place in both; the language switch uses it to keep the reader's place.
type sectionIDs struct{}

func (sectionIDs) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	n := 0
	_ = ast.Walk(doc, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := node.(*ast.Heading); ok && entering {
			n++
			h.SetAttributeString("id", []byte("s"+strconv.Itoa(n)))
		}
		return ast.WalkContinue, nil
	})
}

// highlightGoLines returns Go source as highlighted HTML with numbered
// lines, for the learner's file and the reference solution, with the given
// ranges of lines (1-based, inclusive) marked with the class hl.
func highlightGoLines(src []byte, marked [][2]int) (template.HTML, error) {
	lexer := lexers.Get("go")
	if lexer == nil {
		return "", fmt.Errorf("no Go lexer")
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, string(src))
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithLineNumbers(true), chromahtml.HighlightLines(marked))
	if err := f.Format(&b, styles.Get(codeStyle), it); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

// codeCSS returns the stylesheet for the classes of highlighted code.
func codeCSS() ([]byte, error) {
	var b bytes.Buffer
	err := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithLineNumbers(true)).WriteCSS(&b, styles.Get(codeStyle))
	return b.Bytes(), err
}

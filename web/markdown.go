package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/kurs-course/kurs/internal/highlight"
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
		),
		goldmark.WithParserOptions(
			parser.WithASTTransformers(util.Prioritized(sectionIDs{}, 100)),
		),
		// Code blocks: Go highlighted, diagrams as drawn SVG.
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(codeBlocks{}, 100))),
		// Raw HTML stays off (goldmark's default): a course from --course
		// is text, not code that runs in the learner's browser.
	)}
}

// diagramFS holds the lessons' diagrams, drawn from their Mermaid source
// when the assets are built (make assets), one file per source named by
// diagramKey. The page gets the SVG itself: no diagram library runs in the
// browser, and nothing moves once the page is shown.
//
//go:embed diagrams/*.svg
var diagramFS embed.FS

// diagramKey names the drawing of a diagram's source.
func diagramKey(src string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(src)))
	return hex.EncodeToString(sum[:8])
}

// diagramSVG returns the drawing of a diagram's source, if one was made.
func diagramSVG(src string) ([]byte, bool) {
	data, err := fs.ReadFile(diagramFS, "diagrams/"+diagramKey(src)+".svg")
	return data, err == nil
}

// codeBlocks renders fenced code: Go highlighted with chroma's classes,
// Mermaid as its drawing (or, when the course has a diagram kurs has no
// drawing of, as its source), anything else as it is.
type codeBlocks struct{}

func (codeBlocks) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderCode)
}

func renderCode(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	lang := string(n.Language(src))
	var code strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		code.Write(seg.Value(src))
	}
	if lang == "mermaid" {
		if svg, ok := diagramSVG(code.String()); ok {
			_, _ = w.WriteString(`<figure class="diagram">`)
			_, _ = w.Write(bytes.TrimSpace(svg))
			_, _ = w.WriteString("</figure>\n")
			return ast.WalkSkipChildren, nil
		}
		_, _ = w.WriteString(`<pre class="diagram-source"><code>`)
		_, _ = w.WriteString(template.HTMLEscapeString(code.String()))
		_, _ = w.WriteString("</code></pre>\n")
		return ast.WalkSkipChildren, nil
	}
	var it chroma.Iterator
	if lexer := highlight.Lexer(lang); lexer != nil {
		var err error
		if it, err = chroma.Coalesce(lexer).Tokenise(nil, code.String()); err != nil {
			return ast.WalkStop, err
		}
	} else {
		it = chroma.Literator(chroma.Token{Type: chroma.Text, Value: code.String()})
	}
	if err := chromahtml.New(chromahtml.WithClasses(true)).Format(w, highlight.Style(codeStyle), it); err != nil {
		return ast.WalkStop, err
	}
	return ast.WalkSkipChildren, nil
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
	lexer := highlight.Lexer("go")
	if lexer == nil {
		return "", fmt.Errorf("no Go lexer")
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, string(src))
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithLineNumbers(true), chromahtml.HighlightLines(marked))
	if err := f.Format(&b, highlight.Style(codeStyle), it); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

// codeCSS returns the stylesheet for the classes of highlighted code.
func codeCSS() ([]byte, error) {
	var b bytes.Buffer
	err := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithLineNumbers(true)).WriteCSS(&b, highlight.Style(codeStyle))
	return b.Bytes(), err
}

package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/browsertest"
)

// renderDiagrams makes TestDiagramsDrawn draw the course's diagrams anew
// into diagrams/ (make assets does): Mermaid, in Chromium, once, when the
// assets are built, so that no page ever loads it.
var renderDiagrams = flag.Bool("render-diagrams", false, "draw the course's Mermaid diagrams into web/diagrams (needs chromium)")

// courseDiagrams returns the Mermaid sources of the course's Markdown
// texts by diagramKey, read as the page reads them.
func courseDiagrams(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	md := goldmark.New()
	err := fs.WalkDir(kurs.Content(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := fs.ReadFile(kurs.Content(), p)
		if err != nil {
			return err
		}
		return ast.Walk(md.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if fc, ok := n.(*ast.FencedCodeBlock); ok && entering && string(fc.Language(src)) == "mermaid" {
				var b strings.Builder
				for i := 0; i < fc.Lines().Len(); i++ {
					seg := fc.Lines().At(i)
					b.Write(seg.Value(src))
				}
				out[diagramKey(b.String())] = b.String()
			}
			return ast.WalkContinue, nil
		})
	})
	require.NoError(t, err)
	return out
}

// Every diagram of the course has its drawing, and no drawing is left of
// a diagram that changed: a lesson's diagram edited without make assets
// fails here.
func TestDiagramsDrawn(t *testing.T) {
	want := courseDiagrams(t)
	require.NotEmpty(t, want)
	if *renderDiagrams {
		drawDiagrams(t, want)
	}
	have, err := fs.Glob(diagramFS, "diagrams/*.svg")
	require.NoError(t, err)
	for key, src := range want {
		svg, ok := diagramSVG(src)
		if !assert.True(t, ok, "no drawing of the diagram %s; run make assets:\n%s", key, src) {
			continue
		}
		assert.True(t, bytes.HasPrefix(svg, []byte("<svg")), key)
		assert.NotContains(t, string(svg), "<script", key)
	}
	for _, p := range have {
		key := strings.TrimSuffix(filepath.Base(p), ".svg")
		_, used := want[key]
		assert.True(t, used, "%s draws no diagram of the course any more; run make assets", p)
	}
}

// drawDiagrams draws each source with the Mermaid bundle in
// diagrams/mermaid into diagrams/KEY.svg, and removes the drawings of
// sources that are gone.
func drawDiagrams(t *testing.T, want map[string]string) {
	zipped, err := os.ReadFile("diagrams/mermaid/mermaid.min.js.gz")
	require.NoError(t, err)
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	require.NoError(t, err)
	lib, err := io.ReadAll(zr)
	require.NoError(t, err)

	ctx := browsertest.Start(t, 1280, 900)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	_, err = chromedp.Run(ctx, chromedp.Navigate("about:blank"))
	require.NoError(t, err)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](string(lib)+`;
		mermaid.initialize({startOnLoad: false, securityLevel: "strict", theme: "neutral",
			htmlLabels: false, flowchart: {htmlLabels: false}, fontFamily: "system-ui, sans-serif"});`))
	require.NoError(t, err)
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		js := `mermaid.render("d` + key + `", ` + jsString(want[key]) + `).then((r) => r.svg)`
		svg, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		require.NoError(t, err, key)
		require.NoError(t, os.WriteFile(filepath.Join("diagrams", key+".svg"), []byte(svg+"\n"), 0o644))
	}
	old, err := filepath.Glob("diagrams/*.svg")
	require.NoError(t, err)
	for _, p := range old {
		if _, ok := want[strings.TrimSuffix(filepath.Base(p), ".svg")]; !ok {
			require.NoError(t, os.Remove(p))
		}
	}
	t.Log("drawn; build again so that the binary embeds the new drawings")
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\u2028", `\u2028`, "\u2029", `\u2029`, "<", `\x3c`)
	return `"` + r.Replace(s) + `"`
}

// The lesson with the breaker's state diagram, with every asset it loads,
// is at most 150 KB as sent (gzip): the diagram is SVG in the HTML, no
// diagram library comes with it.
func TestLessonPageWeight(t *testing.T) {
	ts := newTestServer(t)
	get := func(path string) (body []byte, sent int) {
		req, err := http.NewRequest("GET", ts.url+path, nil)
		require.NoError(t, err)
		req.Header.Set("Accept-Encoding", "gzip")
		req.AddCookie(ts.cookie)
		// A transport of its own, which leaves the body compressed.
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		raw, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		body = raw
		if resp.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			require.NoError(t, err)
			body, err = io.ReadAll(zr)
			require.NoError(t, err)
		}
		return body, len(raw)
	}
	page, total := get("/lesson/resilience-2/") // the English workspace's address
	assert.Regexp(t, `<figure class="diagram"><svg `, string(page), "the diagram arrives as SVG")
	assets := regexp.MustCompile(`(?:src|href)="(/assets/[^"]+)"`).FindAllStringSubmatch(string(page), -1)
	require.NotEmpty(t, assets)
	for _, m := range assets {
		_, n := get(m[1])
		t.Logf("%s: %d bytes", m[1], n)
		total += n
	}
	t.Logf("the lesson and its assets: %d bytes as sent", total)
	assert.LessOrEqual(t, total, 150<<10)
}

package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// The embedded assets are served under two names: their own
// (/assets/app.js), which browsers revalidate, and one with a hash of
// their content (/assets/app.3f2a1b9c04de.js), which the pages link and
// browsers keep for a year without asking again: a newer kurs links other
// names. Text is served gzip-compressed to clients that accept it. The
// large bundle (the editor) is embedded compressed only, as
// NAME.gz, and decompressed on the fly for the rare client that does not
// accept gzip.

// minCompress is the size below which compressing is not worth a header.
const minCompress = 1024

// asset is one file the pages load.
type asset struct {
	name   string // as the templates name it, e.g. "editor.js"
	hashed string // the name with its hash, e.g. "editor.3f2a1b9c04de.js"
	ctype  string
	etag   string
	raw    []byte // nil when only the compressed form is embedded
	gz     []byte // nil when compressing does not pay
}

// assetTable holds every asset by both names.
type assetTable struct {
	byName map[string]*asset
}

// loadAssets reads the embedded assets once per process: they never
// change while it runs.
var loadAssets = sync.OnceValues(func() (*assetTable, error) {
	sub, err := fs.Sub(assetFS, "assets")
	if err != nil {
		return nil, err
	}
	css, err := codeCSS()
	if err != nil {
		return nil, err
	}
	return newAssetTable(sub, css)
})

// newAssetTable reads the files of fsys (README and licence files
// excepted). The stylesheet of highlighted code, codeCSS, is appended to
// style.css: one stylesheet less that holds up the first paint.
func newAssetTable(fsys fs.FS, codeCSS []byte) (*assetTable, error) {
	t := &assetTable{byName: map[string]*asset{}}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".txt") {
			continue
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		a := &asset{name: name}
		if plain, ok := strings.CutSuffix(name, ".gz"); ok {
			if _, both := t.byName[plain]; both {
				return nil, fmt.Errorf("web: asset %s is embedded both plain and compressed", plain)
			}
			a.name, a.gz = plain, data
		} else {
			a.raw = data
		}
		if name == "style.css" {
			a.raw = append(append(bytes.Clone(data), "\n/* Highlighted code (chroma). */\n"...), codeCSS...)
		}
		t.add(a)
	}
	return t, nil
}

// add completes a and files it under both names.
func (t *assetTable) add(a *asset) {
	a.ctype = mime.TypeByExtension(path.Ext(a.name))
	if a.ctype == "" {
		a.ctype = "application/octet-stream"
	}
	if a.raw != nil && a.gz == nil && len(a.raw) >= minCompress && compressible(a.ctype) {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		_, _ = zw.Write(a.raw)
		_ = zw.Close()
		if b.Len() < len(a.raw)*9/10 {
			a.gz = b.Bytes()
		}
	}
	content := a.raw
	if content == nil {
		content = a.gz
	}
	sum := sha256.Sum256(content)
	hash := hex.EncodeToString(sum[:6])
	a.etag = `"` + hex.EncodeToString(sum[:16]) + `"`
	ext := path.Ext(a.name)
	a.hashed = strings.TrimSuffix(a.name, ext) + "." + hash + ext
	t.byName[a.name] = a
	t.byName[a.hashed] = a
}

func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "javascript") ||
		strings.Contains(ctype, "json") || strings.Contains(ctype, "svg")
}

// url returns the address of an asset under its hashed name; templates
// call it as {{asset "app.js"}}. An unknown name is returned under its own
// name, so that a missing file shows up as a 404 rather than a broken page.
func (t *assetTable) url(name string) string {
	if a, ok := t.byName[name]; ok {
		return "/assets/" + a.hashed
	}
	return "/assets/" + name
}

// ServeHTTP serves an asset by either name; the request's path is the
// name, without /assets/.
func (t *assetTable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	a, ok := t.byName[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	a.serve(w, r, name == a.hashed)
}

// serve writes the asset; an immutable one is the one under the hashed
// name, which never changes its content.
func (a *asset) serve(w http.ResponseWriter, r *http.Request, immutable bool) {
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("ETag", a.etag)
	if immutable {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if a.gz != nil {
		h.Add("Vary", "Accept-Encoding")
	}
	switch {
	case a.gz != nil && acceptsGzip(r):
		h.Set("Content-Encoding", "gzip")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.gz))
	case a.raw != nil:
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.raw))
	default:
		// Only the compressed form is embedded: decompress it for this
		// client, without ranges.
		if match := r.Header.Get("If-None-Match"); match == a.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		zr, err := gzip.NewReader(bytes.NewReader(a.gz))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if r.Method == http.MethodHead {
			return
		}
		_, _ = io.Copy(w, zr)
	}
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") && strings.TrimSpace(coding) != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/kurs-course/kurs/internal/course"
)

// doc is one lesson text, parsed as far as validation needs: the outline
// (headings, code blocks, tables) line by line, and links with goldmark.
type doc struct {
	file     string // course path, e.g. lessons/x/de.md
	lang     string
	data     []byte
	headings []heading
	fences   []fence
	tables   []*table
	markers  []*marker
}

type heading struct {
	level, line int
}

func (h heading) at() int { return h.line }

type fence struct {
	info string
	line int
}

type table struct {
	line   int // the header row's
	header []string
	rows   []row
	marker *marker
}

func (t *table) at() int { return t.line }

type row struct {
	line  int
	cells []string
}

// marker is a comment that ties the table after it to a trace:
//
//	<!-- kurs:trace EXERCISE TEST columns=KIND,… [row=CALL] [WORD=TEXT…] -->
type marker struct {
	line     int
	exercise string
	test     string
	columns  []string
	row      string            // a row begins at each step that calls this
	words    map[string]string // value → how the table writes it
	table    *table
}

var delimiterRow = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\|(\s*:?-{3,}:?\s*\|)+\s*$`) })

// parseDoc reads a Markdown file; problems in its markers are reported.
func (v *validator) parseDoc(file, lang string, data []byte) *doc {
	d := &doc{file: file, lang: lang, data: data}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var open string // the fence that is open, "" outside code blocks
	var pending *marker
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		trimmed := strings.TrimLeft(ln, " ")
		if open != "" {
			if strings.HasPrefix(trimmed, open) && strings.Trim(trimmed, open[:1]) == "" {
				open = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			n := len(trimmed) - len(strings.TrimLeft(trimmed, trimmed[:1]))
			open = strings.Repeat(trimmed[:1], n)
			d.fences = append(d.fences, fence{info: strings.TrimSpace(trimmed[n:]), line: i + 1})
			continue
		}
		if strings.HasPrefix(trimmed, "<!--") && strings.Contains(ln, "kurs:trace") {
			start := i
			body := ln
			for !strings.Contains(body, "-->") && i+1 < len(lines) {
				i++
				body += " " + lines[i]
			}
			if pending != nil {
				v.add(file, pending.line, MarkerNoTable)
			}
			pending = v.parseMarker(file, start+1, body)
			if pending != nil {
				d.markers = append(d.markers, pending)
			}
			continue
		}
		if level := headingLevel(ln); level > 0 {
			d.headings = append(d.headings, heading{level: level, line: i + 1})
		}
		if strings.HasPrefix(trimmed, "|") && i+1 < len(lines) && delimiterRow().MatchString(strings.TrimSpace(lines[i+1])) {
			t := &table{line: i + 1, header: splitRow(ln)}
			j := i + 2
			for ; j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "|"); j++ {
				t.rows = append(t.rows, row{line: j + 1, cells: splitRow(lines[j])})
			}
			if pending != nil {
				pending.table, t.marker, pending = t, pending, nil
			}
			d.tables = append(d.tables, t)
			i = j - 1
			continue
		}
		if pending != nil && strings.TrimSpace(ln) != "" {
			v.add(file, pending.line, MarkerNoTable)
			pending = nil
		}
	}
	if pending != nil {
		v.add(file, pending.line, MarkerNoTable)
	}
	return d
}

// headingLevel returns the level of an ATX heading, or 0.
func headingLevel(ln string) int {
	n := len(ln) - len(strings.TrimLeft(ln, "#"))
	if n < 1 || n > 6 || (len(ln) > n && ln[n] != ' ') {
		return 0
	}
	return n
}

func splitRow(s string) []string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "|")
	s = strings.TrimSuffix(s, "|")
	s = strings.ReplaceAll(s, `\|`, "\x00")
	parts := strings.Split(s, "|")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.TrimSpace(p), "\x00", "|")
	}
	return parts
}

// columnKind matches the kinds of a marker's columns.
var columnKind = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(-|calls|expect|next|(arg[1-9]?|ret|before|after)(\+(arg[1-9]?|ret|before|after))*)$`)
})

// parseMarker reads a kurs:trace comment, reporting what it cannot read.
func (v *validator) parseMarker(file string, line int, body string) *marker {
	s := strings.TrimSpace(body)
	s = strings.TrimPrefix(s, "<!--")
	s, _, _ = strings.Cut(s, "-->")
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "kurs:trace"))
	fields, err := splitQuoted(s)
	bad := func(reason, value string) *marker {
		v.add(file, line, MarkerSyntax, "Reason", reason, "Value", value)
		return nil
	}
	if err != nil {
		return bad("quote", "")
	}
	if len(fields) < 3 || strings.Contains(fields[0], "=") || strings.Contains(fields[1], "=") {
		return bad("form", "")
	}
	m := &marker{line: line, exercise: fields[0], test: fields[1], words: map[string]string{}}
	for _, f := range fields[2:] {
		k, val, ok := strings.Cut(f, "=")
		if !ok || k == "" {
			return bad("pair", f)
		}
		switch k {
		case "columns":
			m.columns = strings.Split(val, ",")
			for _, c := range m.columns {
				if !columnKind().MatchString(c) {
					return bad("column", c)
				}
			}
		case "row":
			m.row = val
		default:
			m.words[k] = val
		}
	}
	if m.columns == nil {
		return bad("no_columns", "")
	}
	return m
}

// errQuote is a quote that is not closed.
var errQuote = errors.New("a quote is not closed")

// splitQuoted splits s at spaces, keeping "quoted parts" together.
func splitQuoted(s string) ([]string, error) {
	var out []string
	var b strings.Builder
	quoted, started := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, started = !quoted, true
		case !quoted && (r == ' ' || r == '\t'):
			if started {
				out = append(out, b.String())
			}
			b.Reset()
			started = false
		default:
			b.WriteRune(r)
			started = true
		}
	}
	if quoted {
		return nil, errQuote
	}
	if started {
		out = append(out, b.String())
	}
	return out, nil
}

// lessons parses every lesson text, checks its links and markers, and
// compares the languages. It returns the parsed texts by file.
func (v *validator) lessons(c *course.Course) map[string]*doc {
	docs := map[string]*doc{}
	ids := make([]string, len(c.Exercises))
	for i, ex := range c.Exercises {
		ids[i] = ex.ID
	}
	for _, l := range c.Lessons {
		byLang := map[string]*doc{}
		for _, lang := range course.Languages {
			data, err := l.Markdown(lang)
			if err != nil {
				continue // reported by texts
			}
			file := path.Join("lessons", l.ID, lang+".md")
			d := v.parseDoc(file, lang, data)
			docs[file], byLang[lang] = d, d
			v.links(file, path.Dir(file), data, len(d.headings))
			for _, m := range d.markers {
				v.markerTarget(c, file, m)
			}
		}
		if de, en := byLang["de"], byLang["en"]; de != nil && en != nil {
			v.parity(de, en, ids)
		}
	}
	for _, ex := range c.Exercises {
		for _, lang := range course.Languages {
			for _, name := range []string{"task", "hints", "quiz"} {
				file := path.Join("exercises", ex.ID, name+"."+lang+".md")
				if data, err := fs.ReadFile(v.fsys, file); err == nil && strings.Contains(string(data), "](") {
					v.links(file, path.Dir(file), data, 0)
				}
			}
		}
	}
	return docs
}

// markerTarget checks that a marker names a fixed trace of the course.
func (v *validator) markerTarget(c *course.Course, file string, m *marker) {
	ex, ok := c.Exercise(m.exercise)
	if !ok && v.broken[path.Join("exercises", m.exercise)] {
		return // the exercise's own problem is reported
	}
	if !ok {
		v.add(file, m.line, MarkerTarget, "Exercise", m.exercise, "Test", m.test)
		return
	}
	for _, t := range ex.Suite.Tests {
		if t.Name == m.test && len(t.Steps) > 0 {
			return
		}
	}
	v.add(file, m.line, MarkerTarget, "Exercise", m.exercise, "Test", m.test)
}

// uneven reports under kind that one language of a lesson has more parts
// (headings, tables) than the other, dp in de and ep in en, at the first
// part the other lacks.
func uneven[P interface{ at() int }](v *validator, kind Kind, de, en *doc, dp, ep []P) {
	if len(dp) == len(ep) {
		return
	}
	long, short, more := de, en, dp
	if len(ep) > len(dp) {
		long, short, more = en, de, ep
	}
	few := min(len(dp), len(ep))
	v.add(long.file, more[few].at(), kind, "Have", len(more), "OtherHave", few, "Other", short.file)
}

// parity reports where the two languages of a lesson are out of step.
func (v *validator) parity(de, en *doc, exercises []string) {
	at := func(d *doc, line int) string { return fmt.Sprintf("%s:%d", d.file, line) }
	// Sections: the same headings at the same levels.
	for i := 0; i < min(len(de.headings), len(en.headings)); i++ {
		if a, b := de.headings[i], en.headings[i]; a.level != b.level {
			v.add(de.file, a.line, Headings, "N", i+1, "Level", a.level, "OtherLevel", b.level, "Other", at(en, b.line))
			break
		}
	}
	uneven(v, Headings, de, en, de.headings, en.headings)
	// Code blocks: the same blocks, in the same languages.
	for i := 0; i < max(len(de.fences), len(en.fences)); i++ {
		switch {
		case i >= len(de.fences):
			v.add(en.file, en.fences[i].line, CodeBlocks, "N", i+1, "Info", "```"+en.fences[i].info, "Other", de.file)
		case i >= len(en.fences):
			v.add(de.file, de.fences[i].line, CodeBlocks, "N", i+1, "Info", "```"+de.fences[i].info, "Other", en.file)
		case de.fences[i].info != en.fences[i].info:
			v.add(de.file, de.fences[i].line, CodeBlocks, "N", i+1, "Info", "```"+de.fences[i].info, "Other", at(en, en.fences[i].line), "OtherInfo", "```"+en.fences[i].info)
		default:
			continue
		}
		break
	}
	// Tables: as many, each with as many columns and rows.
	uneven(v, Tables, de, en, de.tables, en.tables)
	for i := 0; i < min(len(de.tables), len(en.tables)); i++ {
		a, b := de.tables[i], en.tables[i]
		if len(a.header) != len(b.header) || len(a.rows) != len(b.rows) {
			v.add(de.file, a.line, TableShape, "N", i+1, "Cols", len(a.header), "Rows", len(a.rows),
				"OtherCols", len(b.header), "OtherRows", len(b.rows), "Other", at(en, b.line))
		}
	}
	// Exercises: each one the lesson mentions as code (`kurs check x`,
	// `x/x.go`, `x.New`), in both languages. Prose does not count: an id
	// such as backoff is also a word.
	for _, id := range exercises {
		a, b := codeMention(de, id), codeMention(en, id)
		switch {
		case a > 0 && b == 0:
			v.add(de.file, a, Mentions, "Exercise", id, "Other", en.file)
		case a == 0 && b > 0:
			v.add(en.file, b, Mentions, "Exercise", id, "Other", de.file)
		}
	}
	// Tied tables: the same traces behind the same tables.
	key := func(m *marker) string { return m.exercise + " " + m.test }
	for i := 0; i < max(len(de.markers), len(en.markers)); i++ {
		switch {
		case i >= len(de.markers):
			v.add(en.file, en.markers[i].line, Markers, "Trace", key(en.markers[i]), "Other", de.file)
		case i >= len(en.markers):
			v.add(de.file, de.markers[i].line, Markers, "Trace", key(de.markers[i]), "Other", en.file)
		case key(de.markers[i]) != key(en.markers[i]):
			v.add(de.file, de.markers[i].line, Markers, "Trace", key(de.markers[i]), "Other", at(en, en.markers[i].line))
		default:
			continue
		}
		break
	}
}

// links checks the links and images of a Markdown file at file, whose
// relative links start from dir.
func (v *validator) links(file, dir string, src []byte, sections int) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	root := md.Parser().Parse(text.NewReader(src))
	_ = gast.Walk(root, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			return gast.WalkContinue, nil
		}
		var dest string
		kind := Link
		switch n := n.(type) {
		case *gast.Link:
			dest = string(n.Destination)
		case *gast.Image:
			dest, kind = string(n.Destination), Image
		default:
			return gast.WalkContinue, nil
		}
		if why := v.target(dir, dest, kind == Image, sections); why != "" {
			v.add(file, lineAt(src, int64(nodeOffset(n, src))), kind, "Target", dest, "Why", why)
		}
		return gast.WalkContinue, nil
	})
}

// nodeOffset returns the byte offset of an inline node: that of its first
// text, else of the block it stands in.
func nodeOffset(n gast.Node, src []byte) int {
	var off = -1
	_ = gast.Walk(n, func(c gast.Node, entering bool) (gast.WalkStatus, error) {
		if t, ok := c.(*gast.Text); ok && entering {
			off = t.Segment.Start
			return gast.WalkStop, nil
		}
		return gast.WalkContinue, nil
	})
	for p := n; off < 0 && p != nil; p = p.Parent() {
		if p.Type() == gast.TypeBlock && p.Lines().Len() > 0 {
			off = p.Lines().At(0).Start
		}
	}
	return max(off, 0)
}

// sectionID matches the ids the web UI gives headings: s1, s2, ….
var sectionID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^s([1-9][0-9]*)$`) })

// target returns why a link's destination leads nowhere, or "". Links
// with a scheme (https:, mailto:) are not followed: kurs works offline.
func (v *validator) target(dir, dest string, image bool, sections int) string {
	u, err := url.Parse(dest)
	if err != nil {
		return "malformed"
	}
	if u.Scheme != "" || u.Host != "" {
		return ""
	}
	p := u.Path
	if p == "" {
		if u.Fragment == "" {
			return "empty"
		}
		return checkFragment(u.Fragment, sections)
	}
	if path.IsAbs(p) {
		return "absolute"
	}
	full := path.Join(dir, p)
	if full == ".." || strings.HasPrefix(full, "../") {
		return "outside"
	}
	info, err := fs.Stat(v.fsys, full)
	switch {
	case err != nil:
		return "missing"
	case image && info.IsDir():
		return "folder"
	}
	if u.Fragment != "" && strings.HasSuffix(full, ".md") {
		data, err := fs.ReadFile(v.fsys, full)
		if err == nil {
			n := 0
			for _, ln := range strings.Split(string(data), "\n") {
				if headingLevel(ln) > 0 {
					n++
				}
			}
			return checkFragment(u.Fragment, n)
		}
	}
	return ""
}

func checkFragment(frag string, sections int) string {
	m := sectionID().FindStringSubmatch(frag)
	if m == nil {
		return "anchor"
	}
	if n, _ := strconv.Atoi(m[1]); n > sections {
		return "anchor"
	}
	return ""
}

// inlineCode finds code spans on a line.
var inlineCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`[^`]+`") })

// codeMention returns the first line where id appears in code (a code span
// or block), or 0.
func codeMention(d *doc, id string) int {
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(id) + `\b`)
	inFence := false
	for i, ln := range strings.Split(string(d.data), "\n") {
		t := strings.TrimSpace(ln)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence && word.MatchString(ln) {
			return i + 1
		}
		for _, span := range inlineCode().FindAllString(ln, -1) {
			if word.MatchString(span) {
				return i + 1
			}
		}
	}
	return 0
}

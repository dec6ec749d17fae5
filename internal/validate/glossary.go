package validate

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kurs-course/kurs/internal/course"
)

// This file holds the course's one term for each thing. A course may keep
// a glossary per language, lessons/glossary.LANG.txt; each of its lines
// names words a text in that language must not use and the course's term
// for the same thing:
//
//	# comment
//	Retry-Sturm, Retry-Stürme -> Retry Storm
//	Marke* -> Token
//
// A word matches as a whole word and with its case; a trailing * stands
// for every word that begins so ("Marke*" matches "Marken"). The check
// reads the prose of every lesson, task, hints, quiz and misconception
// text and the titles of the hidden tests; code and code spans are not
// prose.

// glossaryRule is one line of a glossary.
type glossaryRule struct {
	words []string // as written, a trailing * included
	term  string
}

// glossaryFile is where a language's glossary lives.
func glossaryFile(lang string) string { return path.Join("lessons", "glossary."+lang+".txt") }

// readGlossary reads a language's glossary; a course without one has no
// rules. A line that cannot be read is reported.
func (v *validator) readGlossary(lang string) []glossaryRule {
	file := glossaryFile(lang)
	data, err := fs.ReadFile(v.fsys, file)
	if err != nil {
		return nil
	}
	var rules []glossaryRule
	for i, ln := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		ln = strings.TrimSpace(ln)
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		words, term, ok := strings.Cut(ln, "->")
		r := glossaryRule{term: strings.TrimSpace(term)}
		for _, w := range strings.Split(words, ",") {
			if w = strings.Join(strings.Fields(w), " "); w != "" && w != "*" {
				r.words = append(r.words, w)
			}
		}
		if !ok || r.term == "" || len(r.words) == 0 {
			v.add(file, i+1, GlossaryFile, "Text", ln)
			continue
		}
		rules = append(rules, r)
	}
	return rules
}

// glossary reports every use of a word a glossary replaces.
func (v *validator) glossary(c *course.Course) {
	for _, lang := range course.Languages {
		rules := v.readGlossary(lang)
		if len(rules) == 0 {
			continue
		}
		var files []string
		for _, l := range c.Lessons {
			files = append(files, path.Join("lessons", l.ID, lang+".md"))
		}
		for _, ex := range c.Exercises {
			for _, name := range []string{"task", "hints", "quiz"} {
				files = append(files, path.Join("exercises", ex.ID, name+"."+lang+".md"))
			}
			more, _ := fs.Glob(v.fsys, path.Join("exercises", ex.ID, "misconceptions", "*", lang+".md"))
			files = append(files, more...)
		}
		for _, file := range files {
			data, err := fs.ReadFile(v.fsys, file)
			if err != nil {
				continue // a missing text is reported where it is required
			}
			lines := proseLines(data)
			for i, l := range lines {
				v.glossaryLine(file, l.n, l.text, lang, rules)
				if i > 0 && lines[i-1].n == l.n-1 {
					v.glossaryBreak(file, lines[i-1], l, lang, rules)
				}
			}
		}
		for _, ex := range c.Exercises {
			suite := path.Join("exercises", ex.ID, "testdata", "suite.json")
			for i, st := range ex.Suite.Tests {
				v.glossaryLine(suite, v.at(suite, fmt.Sprintf("tests.%d.title.%s", i, lang)), ex.Suite.Titles[st.Name][lang], lang, rules)
			}
		}
	}
}

// glossaryLine reports each forbidden word in one line of text.
func (v *validator) glossaryLine(file string, line int, text, lang string, rules []glossaryRule) {
	for _, r := range rules {
		for _, w := range r.words {
			if found := findWord(text, w); found != "" {
				v.add(file, line, Glossary, "Word", found, "Term", r.term, "Glossary", glossaryFile(lang))
			}
		}
	}
}

// glossaryBreak reports a forbidden phrase of several words that a line
// break splits ("zwei" at the end of one line, "Auswahlen" at the start of
// the next), at the line where it begins. Of each line it joins only one
// word fewer than the phrase has, so a match is always one that spans the
// break, never one glossaryLine has reported already.
func (v *validator) glossaryBreak(file string, prev, cur proseLine, lang string, rules []glossaryRule) {
	before, after := strings.Fields(prev.text), strings.Fields(cur.text)
	for _, r := range rules {
		for _, w := range r.words {
			n := len(strings.Fields(w)) - 1
			if n < 1 || len(before) == 0 || len(after) == 0 {
				continue
			}
			joined := strings.Join(before[max(0, len(before)-n):], " ") + " " + strings.Join(after[:min(n, len(after))], " ")
			if found := findWord(joined, w); found != "" {
				v.add(file, prev.n, Glossary, "Word", found, "Term", r.term, "Glossary", glossaryFile(lang))
			}
		}
	}
}

// findWord returns the first whole-word match of w in text, as the text
// writes it; a trailing * in w matches the rest of a word.
func findWord(text, w string) string {
	prefix := strings.HasSuffix(w, "*")
	w = strings.TrimSuffix(w, "*")
	for from := 0; ; {
		i := strings.Index(text[from:], w)
		if i < 0 {
			return ""
		}
		i += from
		end := i + len(w)
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if !isWordRune(before) && (prefix || !isWordRune(after)) {
			for end < len(text) {
				r, size := utf8.DecodeRuneInString(text[end:])
				if !isWordRune(r) {
					break
				}
				end += size
			}
			return text[i:end]
		}
		from = i + 1
	}
}

// isWordRune reports whether r belongs to a word; utf8.RuneError, which
// the decoders return at either end of the text, does not.
func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}

package validate

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kurs-course/kurs/internal/course"
)

// This file checks what the texts of a course say about the course
// itself, the mistakes a reader finds and a build does not: a reference to
// a lesson, exercise, step, pitfall, hidden test or source that does not
// exist, a number of random traces that differs from the suite's, and
// English quotation marks in German.

// proseLine is one line of Markdown outside code blocks and comments,
// with its code spans blanked out (so that Go's quotes are not prose).
type proseLine struct {
	n    int
	text string // code spans replaced by spaces
	code []string
}

// proseLines splits Markdown into its lines of prose.
func proseLines(data []byte) []proseLine {
	var out []proseLine
	var open string
	comment := false
	for i, ln := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
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
			continue
		}
		if comment || strings.HasPrefix(trimmed, "<!--") {
			comment = !strings.Contains(ln, "-->")
			continue
		}
		p := proseLine{n: i + 1}
		for _, c := range codeSpan().FindAllString(ln, -1) {
			p.code = append(p.code, strings.Trim(c, "`"))
		}
		p.text = codeSpan().ReplaceAllStringFunc(ln, func(s string) string { return strings.Repeat(" ", len(s)) })
		out = append(out, p)
	}
	return out
}

// courseText is one Markdown file of the course with what it belongs to.
type courseText struct {
	file   string
	lang   string
	lesson *course.Lesson   // the lesson it is, or whose exercise it is part of
	ex     *course.Exercise // nil for a lesson
	data   []byte
}

// prose runs the checks of this file on every lesson and on every task,
// hints and quiz file.
func (v *validator) prose(c *course.Course) {
	var texts []courseText
	for _, l := range c.Lessons {
		for _, lang := range course.Languages {
			if data, err := l.Markdown(lang); err == nil {
				texts = append(texts, courseText{file: path.Join("lessons", l.ID, lang+".md"), lang: lang, lesson: l, data: data})
			}
		}
	}
	for _, ex := range c.Exercises {
		l, _ := c.Lesson(ex.Lesson)
		for _, lang := range course.Languages {
			for _, name := range []string{"task", "hints", "quiz"} {
				file := path.Join("exercises", ex.ID, name+"."+lang+".md")
				if data, err := fs.ReadFile(v.fsys, file); err == nil {
					texts = append(texts, courseText{file: file, lang: lang, lesson: l, ex: ex, data: data})
				}
			}
		}
	}
	// German titles: the hidden tests', the exercises' and the lessons'.
	for _, ex := range c.Exercises {
		suite := path.Join("exercises", ex.ID, "testdata", "suite.json")
		for i, st := range ex.Suite.Tests {
			if m := englishQuote().FindString(ex.Suite.Titles[st.Name]["de"]); m != "" {
				v.add(suite, v.at(suite, fmt.Sprintf("tests.%d.title.de", i)), Quotes, "Text", strings.TrimSpace(m))
			}
		}
		file := path.Join("exercises", ex.ID, "exercise.json")
		if m := englishQuote().FindString(ex.Title["de"]); m != "" {
			v.add(file, v.at(file, "title.de"), Quotes, "Text", strings.TrimSpace(m))
		}
	}
	for _, l := range c.Lessons {
		file := path.Join("lessons", l.ID, "lesson.json")
		if m := englishQuote().FindString(l.Title["de"]); m != "" {
			v.add(file, v.at(file, "title.de"), Quotes, "Text", strings.TrimSpace(m))
		}
	}
	for _, t := range texts {
		lines := proseLines(t.data)
		if t.lang == "de" {
			v.quotes(t, lines)
		}
		v.randomCount(c, t, lines)
		v.crossRefs(c, t, lines)
	}
}

// englishQuote finds what German does not write: an opening “ (after a
// space or at the start, before a word), a ” at all, or a straight " that
// opens a quotation.
var englishQuote = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[\s(])“\S|”|(?:^|[\s(])"\p{L}`) })

// quotes reports English quotation marks in a German text.
func (v *validator) quotes(t courseText, lines []proseLine) {
	for _, l := range lines {
		if m := englishQuote().FindString(l.text); m != "" {
			v.add(t.file, l.n, Quotes, "Text", strings.TrimSpace(m))
		}
	}
}

// randomPhrase finds a number of random traces as a text states it:
// "1,000 random traces", "über tausend Zufallsspuren", "a thousand random
// runs".
var randomPhrase = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)((?:over|more than|about|über|mehr als|etwa|rund)\s+)?(a thousand|thousand|tausend|\d{1,3}(?:[.,  ]\d{3})+|\d+)\s+(?:random traces|random runs|zufallsspuren|zufällige abläufe|zufällige spuren)`)
})

// randomCount reports a number of random traces that is not what the
// suite runs: an exercise's texts must state its own count exactly; a
// lesson's, the count of one of its exercises.
func (v *validator) randomCount(c *course.Course, t courseText, lines []proseLine) {
	var want []int
	switch {
	case t.ex != nil:
		if n := randomTraces(t.ex); n > 0 {
			want = []int{n}
		}
	case t.lesson != nil:
		for _, id := range t.lesson.Exercises {
			if ex, ok := c.Exercise(id); ok && randomTraces(ex) > 0 {
				want = append(want, randomTraces(ex))
			}
		}
	}
	if len(want) == 0 {
		return
	}
	for _, l := range lines {
		for _, m := range randomPhrase().FindAllStringSubmatch(l.text, -1) {
			said := strings.TrimSpace(m[0])
			n := 1000
			if d := strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return r
				}
				return -1
			}, m[2]); d != "" {
				n, _ = strconv.Atoi(d)
			}
			if m[1] != "" || !slices.Contains(want, n) {
				v.add(t.file, l.n, RandomCount, "Said", said, "Want", want[0])
			}
		}
	}
}

// randomTraces returns how many random traces ex's hidden tests run.
func randomTraces(ex *course.Exercise) int {
	n := 0
	for _, t := range ex.Suite.Tests {
		n += t.Random
	}
	return n
}

var (
	// verbRef finds an exercise named by a command: "kurs check ID".
	verbRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^kurs (?:check|hint|try|reset|restore|solution) ([a-z][a-z0-9]*)\b`)
	})
	// testRef finds a hidden test named by its id in a code span.
	testRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:seed|edge|lesson|concurrent|random|stress|sim)/[a-z0-9/-]+(?:…)?$`)
	})
	// stepRef finds a step of a lesson: "Schritt 3", "steps 2 to 7",
	// "step 1 of the lesson".
	stepRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:aus|in|zu|von|nach|siehe|from|of|in|see|to)\s+(?:den\s+|the\s+)?(?:Schritten|Schritt|steps|step)\s+(\d+)(?:\s+(?:bis|to|und|and)\s+(\d+))?`)
	})
	// pitfallRef finds a pitfall by its number.
	pitfallRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:Stolperfalle|pitfall)\s+(\d+)`) })
	// exerciseRef finds an exercise of a lesson by its number.
	exerciseRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:Übung|exercise)\s+(\d+)\b`) })
	// lessonRef finds a lesson named by its title.
	lessonRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:Lektion|lesson)\s+[„"“]([^“"”]+)[“"”]`)
	})
	// chapterRef finds a chapter, which a course of lessons does not have.
	chapterRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(?:kapitels?|chapter(?:'s)?)\b`) })
	// sourceRef finds a source cited in a lesson's body.
	sourceRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:die|der|the)\s+(?:\p{L}+\s+)?(?:quelle|source)\b`)
	})
	// stepHeading and pitfallItem count a lesson's steps and pitfalls.
	stepHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^###\s+(?:Schritt|Step)\s+(\d+)`) })
	pitfallItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)\.\s`) })
	// exerciseHeading counts a lesson's exercises.
	exerciseHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^###\s+(?:Übung|Exercise)\s+(\d+)`) })
)

// outline is what a lesson has that texts refer to by number.
type outline struct {
	steps, pitfalls, exercises int
	source                     bool // its source section names a source ("Quelle:")
	sourceAt                   int  // the line where the source section begins, 0 if none
}

// outlineOf reads the outline of a lesson text.
func outlineOf(lines []proseLine) outline {
	var o outline
	section := ""
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if strings.HasPrefix(t, "## ") {
			section = strings.TrimPrefix(t, "## ")
			if section == "Quelle" || section == "Source" {
				o.sourceAt = l.n
			}
		}
		if m := stepHeading().FindStringSubmatch(t); m != nil {
			n, _ := strconv.Atoi(m[1])
			o.steps = max(o.steps, n)
		}
		if m := exerciseHeading().FindStringSubmatch(t); m != nil {
			n, _ := strconv.Atoi(m[1])
			o.exercises = max(o.exercises, n)
		}
		if section == "Stolperfallen" || section == "Pitfalls" {
			if m := pitfallItem().FindStringSubmatch(t); m != nil {
				n, _ := strconv.Atoi(m[1])
				o.pitfalls = max(o.pitfalls, n)
			}
		}
		if o.sourceAt > 0 && (strings.HasPrefix(t, "Quelle:") || strings.HasPrefix(t, "Source:")) {
			o.source = true
		}
	}
	return o
}

// crossRefs reports references to what the course does not have.
func (v *validator) crossRefs(c *course.Course, t courseText, lines []proseLine) {
	var o outline
	if t.lesson != nil {
		if data, err := t.lesson.Markdown(t.lang); err == nil {
			o = outlineOf(proseLines(data))
		}
	}
	inLesson := t.ex == nil
	for _, l := range lines {
		for _, code := range l.code {
			if m := verbRef().FindStringSubmatch(code); m != nil {
				// An exercise whose files could not be read is there:
				// its own problem is reported, not every mention of it.
				if _, ok := c.Exercise(m[1]); !ok && !v.broken["exercises/"+m[1]] {
					v.add(t.file, l.n, CrossRef, "What", "exercise", "Name", m[1])
				}
			}
			if testRef().MatchString(code) && !v.hasTest(c, t, code) {
				v.add(t.file, l.n, CrossRef, "What", "test", "Name", code)
			}
		}
		if t.lesson == nil {
			continue
		}
		// A lesson's steps, pitfalls and exercises; an exercise's texts
		// name its lesson's steps ("aus Schritt 3 der Lektion").
		if !otherPart(l.text) && (inLesson || lessonStep(l.text)) {
			for _, m := range stepRef().FindAllStringSubmatch(l.text, -1) {
				for _, g := range m[1:] {
					if n, err := strconv.Atoi(g); err == nil && n > o.steps {
						v.add(t.file, l.n, CrossRef, "What", "step", "Name", g)
					}
				}
			}
		}
		for _, m := range pitfallRef().FindAllStringSubmatch(l.text, -1) {
			if n, _ := strconv.Atoi(m[1]); n > o.pitfalls && !otherPart(l.text) {
				v.add(t.file, l.n, CrossRef, "What", "pitfall", "Name", m[1])
			}
		}
		if inLesson {
			for _, m := range exerciseRef().FindAllStringSubmatch(l.text, -1) {
				if n, _ := strconv.Atoi(m[1]); n > o.exercises && !otherPart(l.text) {
					v.add(t.file, l.n, CrossRef, "What", "exercise", "Name", m[1])
				}
			}
		}
		for _, m := range lessonRef().FindAllStringSubmatch(l.text, -1) {
			if !hasLesson(c, t.lang, m[1]) {
				v.add(t.file, l.n, CrossRef, "What", "lesson", "Name", m[1])
			}
		}
		inSource := inLesson && o.sourceAt > 0 && l.n >= o.sourceAt
		if m := chapterRef().FindString(l.text); m != "" && !inSource {
			v.add(t.file, l.n, Chapter, "Text", m)
		}
		if inLesson && !inSource && !o.source {
			if m := sourceRef().FindString(l.text); m != "" {
				v.add(t.file, l.n, SourceUnnamed, "Text", m)
			}
		}
	}
}

// lessonStep reports whether a line of an exercise's text refers to its
// lesson's steps rather than to the steps of a trace.
func lessonStep(line string) bool {
	l := strings.ToLower(line)
	return strings.Contains(l, "der lektion") || strings.Contains(l, "of the lesson") || strings.Contains(l, "the lesson's")
}

// otherPart reports whether a line counts in another lesson ("Teil 1,
// Stolperfalle 4"), which this check does not follow.
func otherPart(line string) bool {
	l := strings.ToLower(line)
	return strings.Contains(l, "teil ") || strings.Contains(l, "part ")
}

// hasTest reports whether the hidden test id (a prefix if it ends in "…")
// exists: in the text's exercise, or for a lesson in one of its exercises.
func (v *validator) hasTest(c *course.Course, t courseText, id string) bool {
	prefix, open := strings.CutSuffix(id, "…")
	var exs []*course.Exercise
	if t.ex != nil {
		exs = []*course.Exercise{t.ex}
	} else {
		for _, eid := range t.lesson.Exercises {
			if ex, ok := c.Exercise(eid); ok {
				exs = append(exs, ex)
			}
		}
	}
	for _, ex := range exs {
		for _, st := range ex.Suite.Tests {
			if st.Name == id || open && strings.HasPrefix(st.Name, prefix) {
				return true
			}
		}
	}
	return false
}

// hasLesson reports whether title begins the title of a lesson in lang.
func hasLesson(c *course.Course, lang, title string) bool {
	for _, l := range c.Lessons {
		if strings.HasPrefix(l.Title[lang], title) {
			return true
		}
	}
	return false
}

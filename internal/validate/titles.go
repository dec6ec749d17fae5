package validate

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/kurs-course/kurs/internal/course"
)

// titleMax is the most characters of a test's title: it heads the test's
// explanation on one line of a terminal, before the test's kind and id.
const titleMax = 80

// testTitles reports every hidden test without a title in a language, and
// every title too long to read at a glance: the learner reads a test by
// its title, in the learner's language, and its id only after it. A
// quiz case's title is its heading in quiz.LANG.md.
func (v *validator) testTitles(c *course.Course) {
	for _, ex := range c.Exercises {
		if ex.Traits().Data {
			v.caseTitles(ex)
			continue
		}
		file := path.Join("exercises", ex.ID, "testdata", "suite.json")
		for i, t := range ex.Suite.Tests {
			for _, lang := range course.Languages {
				title := ex.Suite.Titles[t.Name][lang]
				at := v.at(file, fmt.Sprintf("tests.%d.title.%s", i, lang))
				switch n := utf8.RuneCountInString(title); {
				case strings.TrimSpace(title) == "":
					v.add(file, at, TestTitle, "Test", t.Name, "Lang", lang)
				case n > titleMax:
					v.add(file, at, TestTitleLong, "Test", t.Name, "Lang", lang, "Got", n, "Max", titleMax)
				}
			}
		}
	}
}

// caseTitles reports a quiz case whose heading is empty in a language it
// is written in; a case missing in a language is the quiz check's.
func (v *validator) caseTitles(ex *course.Exercise) {
	for _, t := range ex.Suite.Tests {
		if t.Case < 1 || t.Case > len(ex.Quiz) {
			continue
		}
		for _, lang := range course.Languages {
			line := ex.Line(fmt.Sprintf("quiz.%s.%d", lang, t.Case-1))
			if line > 0 && strings.TrimSpace(ex.Quiz[t.Case-1].Label[lang]) == "" {
				v.add(path.Join("exercises", ex.ID, "quiz."+lang+".md"), line, TestTitle, "Test", t.Name, "Lang", lang)
			}
		}
	}
}

package validate

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/i18n"
)

// TestTestTitles plants hidden tests without a title in a language, one
// without any, a title too long for a line and a quiz case whose heading
// is empty, and expects each reported at its line with the test's id and
// the language.
func TestTestTitles(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	m["exercises/clamp/testdata/suite.json"].Data = []byte(`{
  "observe": "Value",
  "tests": [
    {"name": "seed/below-the-ceiling",
     "title": {"en": "Below the ceiling"},
     "new": [10], "steps": [{"call": "Add", "args": [1], "obs": "1"}]},
    {"name": "edge/untitled", "new": [10], "steps": [{"call": "Add", "args": [2], "obs": "2"}]},
    {"name": "edge/long",
     "title": {"de": "` + strings.Repeat("lang ", 17) + `",
               "en": "Long"},
     "new": [10], "steps": [{"call": "Add", "args": [3], "obs": "3"}]}
  ]
}`)
	m["lessons/main/lesson.json"].Data = []byte(`{"id": "main", "order": 1, "title": {"de": "Deckel", "en": "Ceiling"}, "exercises": ["clamp", "pick"]}`)
	m["exercises/pick/exercise.json"] = &fstest.MapFile{Data: []byte(`{"id": "pick", "kind": "quiz", "points": 1, "title": {"de": "Wahl", "en": "Choice"}, "imports": [], "answers": ["A"]}`)}
	for lang, heading := range map[string]string{"de": "## ", "en": "## Case 1"} {
		m["exercises/pick/task."+lang+".md"] = &fstest.MapFile{Data: []byte("Wähle.\n\n<!-- kurs:quiz -->\n")}
		m["exercises/pick/hints."+lang+".md"] = &fstest.MapFile{Data: []byte("## 1\n\nDenk nach.\n")}
		m["exercises/pick/skeleton/"+lang+"/pick.go"] = &fstest.MapFile{Data: []byte("package pick\n\n// Answer is the answer.\nvar Answer = [1]string{}\n")}
		m["exercises/pick/quiz."+lang+".md"] = &fstest.MapFile{Data: []byte(heading + "\n\nWhich?\n\n### A\n\nThis.\n\n> Because.\n\n### B\n\nThat.\n\n> Not so.\n")}
	}
	r := run(t, m, Options{})
	var titles []string
	for _, p := range r.Problems {
		if p.Kind == TestTitle || p.Kind == TestTitleLong {
			titles = append(titles, strings.Join(append(where([]Problem{p}), argsOf(p)...), " "))
		}
	}
	assert.Equal(t, []string{
		"exercises/clamp/testdata/suite.json:5 test_title Test=seed/below-the-ceiling Lang=de",
		"exercises/clamp/testdata/suite.json:7 test_title Test=edge/untitled Lang=de",
		"exercises/clamp/testdata/suite.json:7 test_title Test=edge/untitled Lang=en",
		"exercises/clamp/testdata/suite.json:9 test_title_long Test=edge/long Lang=de Got=85 Max=80",
		"exercises/pick/quiz.de.md:1 test_title Test=case1 Lang=de",
	}, titles)

	for lang, want := range map[string]string{
		"de": "der verdeckte Test edge/untitled hat keinen Titel auf Deutsch",
		"en": "the hidden test edge/untitled has no German title",
	} {
		p := i18n.New(lang)
		assert.Contains(t, p.T("validate.problem_test_title", "Test", "edge/untitled", "Lang", p.T("validate.lang_de")), want)
	}
}

// argsOf writes a problem's arguments as name=value.
func argsOf(p Problem) []string {
	var out []string
	for i := 0; i+1 < len(p.Args); i += 2 {
		out = append(out, p.Args[i].(string)+"="+fmt.Sprint(p.Args[i+1]))
	}
	return out
}

package scaffold

import (
	"embed"
	"encoding/json"
	"strings"
	"sync"
	"text/template"
)

// templateFiles are the files a new lesson, exercise or course starts
// from: Go templates, NAME.LANG.EXT.tmpl for a text in a language and
// NAME.EXT.tmpl for one that is the same in all, and the texts of a new
// exercise in todo/ and example/ (see loadTexts). Headings of a lesson stay
// in step between the languages, as kurs validate demands.
//
//   - lesson: a new lesson, for the author to write;
//   - solution: the example reference solution of a new exercise, a
//     counter, small enough to replace and complete enough to run;
//   - skeleton: what a learner starts from, the same API doing nothing
//     yet, commented in the learner's language;
//   - suite.json: the hidden tests, one fixed trace to replace and random
//     traces described as data;
//   - quiz-task: the task of a new quiz, its introduction, the line where
//     the cases of quiz.LANG.md appear, and how to answer;
//   - quiz-skeleton: what a learner of a quiz starts from, the answers not
//     given yet;
//   - example-lesson: the lesson of a new course.
//
//go:embed templates
var templateFiles embed.FS

// templates are parsed on first use: every start of kurs would pay for
// them otherwise, and only kurs new uses them.
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.ParseFS(templateFiles, "templates/*.tmpl"))
})

// render fills in the template name ("skeleton.go") with data, in the
// language lang ("de": skeleton.de.go.tmpl), or the one template for all
// languages if lang is empty.
func render(name, lang string, data any) []byte {
	if lang != "" {
		base, ext, _ := strings.Cut(name, ".")
		name = base + "." + lang + "." + ext
	}
	t := templates().Lookup(name + ".tmpl")
	if t == nil {
		panic("scaffold: no template " + name) // the tests run each
	}
	return execute(t, data)
}

// todoTexts are the texts of a new exercise in a course: what the author
// has still to write, marked so that kurs validate lists it.
var todoTexts = sync.OnceValue(func() texts { return loadTexts("templates/todo") })

// exampleTexts are the texts of the exercises of a new course: a complete
// example, which the author replaces.
var exampleTexts = sync.OnceValue(func() texts { return loadTexts("templates/example") })

// loadTexts reads the texts in dir: the short ones from texts.json, each
// longer one from a file of its own, NAME.LANG.md.
func loadTexts(dir string) texts {
	t := texts{}
	if err := json.Unmarshal(mustRead(dir+"/texts.json"), &t); err != nil {
		panic(err)
	}
	entries, err := templateFiles.ReadDir(dir)
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".md")
		name, lang, inLang := strings.Cut(base, ".")
		if !ok || !inLang {
			continue
		}
		if t[name] == nil {
			t[name] = map[string]string{}
		}
		t[name][lang] = string(mustRead(dir + "/" + e.Name()))
	}
	return t
}

// mustRead returns an embedded file; they are constants, and the tests
// read each.
func mustRead(name string) []byte {
	data, err := templateFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return data
}

package scaffold

import (
	"path"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
)

// sampleMisconception is the folder of the misconception a new trace
// exercise starts with: the example counter's Add that sets instead of
// adds.
const sampleMisconception = "add-sets-the-count"

// misconceptionFiles returns the sample misconception of a new trace
// exercise in dir: its wrong code, its title and explanation in every
// language, and misconception.json naming the fixed trace that catches it.
func misconceptionFiles(dir, id string, data map[string]string, t texts) []File {
	base := path.Join(dir, course.MisconceptionsDir, sampleMisconception)
	test := t["test"][lang0]
	files := []File{
		{path.Join(base, id+".go"), render("misconception.go", "", data)},
		{path.Join(base, "misconception.json"), []byte(`{
  "$schema": "../../../../docs/schema/misconception.schema.json",
  "caught_by": [
    ` + quote(test) + `
  ]
}
`)},
	}
	for _, lang := range course.Languages {
		files = append(files, File{path.Join(base, lang+".md"), []byte(t["misconception"][lang])})
	}
	return files
}

// quote writes s as a JSON string; the scaffold's test names hold no
// character that needs escaping but these.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

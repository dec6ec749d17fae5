// Package scaffold makes the files of a new lesson or exercise, in both
// languages, for kurs new. What the author still has to write is marked
// TODO(author), or left empty where a text belongs, so that kurs validate
// lists exactly what is left.
//
// A new exercise is a working trace exercise from the start: a small
// example API in its reference solution and skeletons, one fixed trace and
// random traces described in suite.json, and the driver generated from
// them. The author replaces the example and regenerates the driver with
// kurs new driver.
//
// The package only returns files; writing them, and never over an existing
// file, is the caller's job.
package scaffold

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"path"
	"strings"
	"text/template"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/tracegen"
)

// File is a file to create, at a path relative to the course's root.
type File struct {
	Path string
	Data []byte
}

// Error is a reason kurs new cannot do what was asked. Kind names it; the
// i18n catalogs explain it ("validate.new.KIND"), filled in from Args.
type Error struct {
	Kind string
	Args []any
}

func (e *Error) Error() string { return fmt.Sprintf("scaffold: %s %v", e.Kind, e.Args) }

// Kinds of Error.
const (
	BadExerciseID = "bad_exercise_id" // not a Go package name
	BadLessonID   = "bad_lesson_id"   // not lower-case letters, digits and hyphens
	Exists        = "exists"          // the lesson or exercise exists already
	NoLesson      = "no_lesson"       // an exercise needs a lesson, and there is none
	UnknownLesson = "unknown_lesson"  // --lesson names no lesson
	UnknownEx     = "unknown_exercise"
	NoNew         = "no_new"       // the reference has no New: not a trace exercise
	HandWritten   = "hand_written" // driver.go or api.go is not generated
	Unparsable    = "unparsable"   // the reference or suite.json cannot be read
)

// Lesson returns the files of a new lesson id in the course fsys.
func Lesson(fsys fs.FS, id string) ([]File, error) {
	if !lessonID(id) {
		return nil, &Error{Kind: BadLessonID, Args: []any{"ID", id}}
	}
	dir := path.Join("lessons", id)
	if _, err := fs.Stat(fsys, dir); err == nil {
		return nil, &Error{Kind: Exists, Args: []any{"Path", dir}}
	}
	order := 1
	for _, l := range lessons(fsys) {
		order = max(order, l.Order+1)
	}
	meta, err := indentJSON(map[string]any{
		"id": id, "order": order, "minutes": 0, "exercises": []string{},
		"title": map[string]string{"de": "", "en": ""},
	}, []string{"id", "order", "title", "minutes", "exercises"})
	if err != nil {
		return nil, err
	}
	files := []File{{Path: path.Join(dir, "lesson.json"), Data: meta}}
	for _, lang := range course.Languages {
		files = append(files, File{Path: path.Join(dir, lang+".md"), Data: execute(lessonText[lang], map[string]string{"ID": id})})
	}
	return files, nil
}

// Exercise returns the files of a new exercise id in the course fsys,
// belonging to lesson (empty: the last lesson).
func Exercise(fsys fs.FS, id, lesson string) ([]File, error) {
	if !exerciseID(id) {
		return nil, &Error{Kind: BadExerciseID, Args: []any{"ID", id}}
	}
	dir := path.Join("exercises", id)
	if _, err := fs.Stat(fsys, dir); err == nil {
		return nil, &Error{Kind: Exists, Args: []any{"Path", dir}}
	}
	ls := lessons(fsys)
	if len(ls) == 0 {
		return nil, &Error{Kind: NoLesson}
	}
	var l *course.Lesson
	for _, x := range ls {
		if lesson == "" && (l == nil || x.Order >= l.Order) || x.ID == lesson {
			l = x
		}
	}
	if l == nil {
		return nil, &Error{Kind: UnknownLesson, Args: []any{"Lesson", lesson}}
	}
	order := 1
	if c, _ := course.Load(fsys); c != nil {
		for _, ex := range c.Exercises {
			if ex.Lesson == l.ID {
				order = max(order, ex.Order+1)
			}
		}
	}
	meta, err := indentJSON(map[string]any{
		"id": id, "lesson": l.ID, "order": order, "points": 1,
		"title":   map[string]string{"de": "", "en": ""},
		"summary": map[string]string{"de": "", "en": ""},
		"imports": []string{"errors", "fmt", "math", "strconv", "strings", "sync", "sync/atomic"},
		"hints":   map[string][]string{"de": {}, "en": {}},
	}, []string{"id", "lesson", "order", "points", "title", "summary", "imports", "hints"})
	if err != nil {
		return nil, err
	}
	data := map[string]string{"ID": id}
	solution := execute(solutionText, data)
	suite := execute(suiteText, data)
	driver, api, err := generate(id, solution, suite)
	if err != nil {
		return nil, err
	}
	return []File{
		{path.Join(dir, "exercise.json"), meta},
		{path.Join(dir, "solution", id+".go"), solution},
		{path.Join(dir, "skeleton", "de", id+".go"), execute(skeletonText["de"], data)},
		{path.Join(dir, "skeleton", "en", id+".go"), execute(skeletonText["en"], data)},
		{path.Join(dir, "testdata", "suite.json"), suite},
		{path.Join(dir, "testdata", "driver.go"), driver},
		{path.Join(dir, "testdata", "api.go"), api},
	}, nil
}

// Driver returns testdata/driver.go and testdata/api.go of exercise id,
// generated from its reference solution and suite.json. It refuses when
// either file exists and was written by hand.
func Driver(fsys fs.FS, id string) ([]File, error) {
	dir := path.Join("exercises", id)
	if _, err := fs.Stat(fsys, dir); err != nil {
		return nil, &Error{Kind: UnknownEx, Args: []any{"Exercise", id}}
	}
	for _, name := range []string{"driver.go", "api.go"} {
		p := path.Join(dir, "testdata", name)
		if data, err := fs.ReadFile(fsys, p); err == nil && !tracegen.IsGenerated(data) {
			return nil, &Error{Kind: HandWritten, Args: []any{"Path", p}}
		}
	}
	var sol []course.File
	entries, err := fs.ReadDir(fsys, path.Join(dir, "solution"))
	if err != nil {
		return nil, &Error{Kind: Unparsable, Args: []any{"Path", path.Join(dir, "solution") + "/", "Err", err.Error()}}
	}
	for _, d := range entries {
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".go") {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(dir, "solution", d.Name()))
		if err != nil {
			return nil, err
		}
		sol = append(sol, course.File{Name: d.Name(), Data: data})
	}
	suite, err := fs.ReadFile(fsys, path.Join(dir, "testdata", "suite.json"))
	if err != nil {
		return nil, &Error{Kind: Unparsable, Args: []any{"Path", path.Join(dir, "testdata", "suite.json"), "Err", err.Error()}}
	}
	api, err := tracegen.ParseAPI(sol)
	if err != nil {
		return nil, &Error{Kind: Unparsable, Args: []any{"Path", path.Join(dir, "solution") + "/", "Err", err.Error()}}
	}
	if api == nil {
		return nil, &Error{Kind: NoNew, Args: []any{"Exercise", id}}
	}
	var s tracegen.Suite
	if err := json.Unmarshal(suite, &s); err != nil {
		return nil, &Error{Kind: Unparsable, Args: []any{"Path", path.Join(dir, "testdata", "suite.json"), "Err", err.Error()}}
	}
	driver, apiFile, err := tracegen.Files(id, api, s)
	if err != nil {
		return nil, err // tracegen.Mistakes: the caller explains each
	}
	return []File{
		{path.Join(dir, "testdata", "driver.go"), driver},
		{path.Join(dir, "testdata", "api.go"), apiFile},
	}, nil
}

func generate(id string, solution, suite []byte) (driver, api []byte, err error) {
	a, err := tracegen.ParseAPI([]course.File{{Name: id + ".go", Data: solution}})
	if err != nil {
		return nil, nil, err
	}
	var s tracegen.Suite
	if err := json.Unmarshal(suite, &s); err != nil {
		return nil, nil, err
	}
	return tracegen.Files(id, a, s)
}

// lessons returns the course's lessons that can be read.
func lessons(fsys fs.FS) []*course.Lesson {
	var out []*course.Lesson
	entries, _ := fs.ReadDir(fsys, "lessons")
	for _, d := range entries {
		data, err := fs.ReadFile(fsys, path.Join("lessons", d.Name(), "lesson.json"))
		if err != nil {
			continue
		}
		var l course.Lesson
		if json.Unmarshal(data, &l) == nil && l.ID == d.Name() {
			out = append(out, &l)
		}
	}
	return out
}

// exerciseID reports whether id can be an exercise's Go package and folder.
func exerciseID(id string) bool {
	if id == "" || token.IsKeyword(id) || id == "main" {
		return false
	}
	for i, r := range id {
		if !(r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// lessonID reports whether id suits a lesson folder: lower-case letters,
// digits and inner hyphens, starting with a letter.
func lessonID(id string) bool {
	if id == "" || strings.HasSuffix(id, "-") {
		return false
	}
	for i, r := range id {
		if !(r >= 'a' && r <= 'z' || i > 0 && (r >= '0' && r <= '9' || r == '-')) {
			return false
		}
	}
	return true
}

// indentJSON writes m with its keys in the given order, as an author would.
func indentJSON(m map[string]any, order []string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range order {
		v, err := json.MarshalIndent(m[k], "  ", "  ")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "  %q: %s", k, v)
		if i < len(order)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

func execute(t *template.Template, data any) []byte {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		panic(err) // the templates are constants; the tests run each
	}
	return b.Bytes()
}

// IsError reports whether err is a scaffold Error and returns it.
func IsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

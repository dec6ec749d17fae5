// Package scaffold makes the files of a new lesson or exercise, in both
// languages, for kurs new. What the author still has to write is marked
// TODO(author), or left empty where a text belongs, so that kurs validate
// lists exactly what is left.
//
// A new trace exercise works from the start: a small example API in its
// reference solution and skeletons, one fixed trace and random traces
// described in suite.json, and the driver generated from them. The author
// replaces the example and regenerates the driver with kurs new driver. A
// new quiz is one case with two options, in both languages.
//
// A new course is a folder kurs validate accepts as it is, without a
// warning: one lesson, one trace exercise with a misconception and its
// recorded signature, and one quiz, with their texts, and the JSON Schemas
// of the metadata files that the files name, so that an editor completes
// and checks them.
//
// The package only returns files; writing them, and never over an existing
// file, is the caller's job.
package scaffold

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
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
	BadKind       = "bad_kind"        // --kind names no kind of exercise
	BadLessonID   = "bad_lesson_id"   // not lower-case letters, digits and hyphens
	Exists        = "exists"          // the lesson or exercise exists already
	NoCourse      = "no_course"       // no lessons or exercises folder: no course to add to
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
		"$schema": "../../docs/schema/lesson.schema.json",
		"id":      id, "order": order, "minutes": 0, "exercises": []string{},
		"title": map[string]string{"de": "", "en": ""},
	}, []string{"$schema", "id", "order", "title", "minutes", "exercises"})
	if err != nil {
		return nil, err
	}
	files := []File{{Path: path.Join(dir, "lesson.json"), Data: meta}}
	for _, lang := range course.Languages {
		files = append(files, File{Path: path.Join(dir, lang+".md"), Data: render("lesson.md", lang, map[string]string{"ID": id})})
	}
	return files, nil
}

// Exercise returns the files of a new exercise id of the given kind in
// the course fsys, for lesson (empty: the last lesson). The lesson must
// list the exercise under "exercises": see ListIn.
func Exercise(fsys fs.FS, id, lesson string, kind course.Kind) ([]File, error) {
	if !course.ValidID(id) {
		return nil, &Error{Kind: BadExerciseID, Args: []any{"ID", id}}
	}
	if kind == "" {
		kind = course.KindTrace
	}
	if !slices.Contains(course.Kinds, kind) {
		return nil, &Error{Kind: BadKind, Args: []any{"Kind", string(kind)}}
	}
	dir := path.Join("exercises", id)
	if _, err := fs.Stat(fsys, dir); err == nil {
		return nil, &Error{Kind: Exists, Args: []any{"Path", dir}}
	}
	ls := lessons(fsys)
	if len(ls) == 0 {
		// A folder with neither lessons nor exercises is no course yet:
		// the author most likely wants one, which kurs new course makes.
		_, lerr := fs.Stat(fsys, "lessons")
		_, xerr := fs.Stat(fsys, "exercises")
		if lerr != nil && xerr != nil {
			return nil, &Error{Kind: NoCourse, Args: []any{"ID", id}}
		}
		return nil, &Error{Kind: NoLesson}
	}
	if pick(ls, lesson) == nil {
		return nil, &Error{Kind: UnknownLesson, Args: []any{"Lesson", lesson}}
	}
	return exerciseFiles(id, kind, todoTexts())
}

// pick returns the lesson of ls that a new exercise goes to: the one named
// lesson, or the last when lesson is empty; nil when none.
func pick(ls []*course.Lesson, lesson string) *course.Lesson {
	var l *course.Lesson
	for _, x := range ls {
		if lesson == "" && (l == nil || x.Order >= l.Order) || x.ID == lesson {
			l = x
		}
	}
	return l
}

// LessonFile returns the path of the lesson.json that a new exercise for
// lesson (empty: the last lesson) goes to in the course fsys, or "".
func LessonFile(fsys fs.FS, lesson string) string {
	l := pick(lessons(fsys), lesson)
	if l == nil {
		return ""
	}
	return path.Join("lessons", l.ID, "lesson.json")
}

// ListIn returns data, the text of a lesson.json, with id added at the
// end of its "exercises", written as the list is: on one line, or one
// element a line with the indentation of the last. Everything else in the
// file stays as it was. It returns data itself when the list holds id
// already, and an error when data has no such list.
func ListIn(data []byte, id string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("lesson.json: not an object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if t != "exercises" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return nil, errors.New("lesson.json: exercises is not a list")
		}
		open := int(dec.InputOffset()) // just past '['
		last := -1                     // just past the last element
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return nil, err
			}
			if t == id {
				return data, nil
			}
			last = int(dec.InputOffset())
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset()) - 1 // at ']'
		item, _ := json.Marshal(id)
		if last < 0 {
			// An empty list, however it is spread: one element.
			return splice(data, open, end, item), nil
		}
		sep := []byte(", ")
		if i := bytes.LastIndexByte(data[:last], '\n'); i >= open {
			// One element a line: the same indentation as the last.
			line := data[i+1 : last]
			indent := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
			sep = append([]byte(",\n"), indent...)
		}
		return splice(data, last, last, append(sep, item...)), nil
	}
	return nil, errors.New("lesson.json: no exercises list")
}

// splice returns data with data[from:to] replaced by ins.
func splice(data []byte, from, to int, ins []byte) []byte {
	out := append([]byte(nil), data[:from]...)
	out = append(out, ins...)
	return append(out, data[to:]...)
}

// texts are the words of a new exercise, by name and language: the
// author's to write (todoTexts), or a working example (exampleTexts, for a
// new course).
type texts map[string]map[string]string

// lang0 is the language of the texts that are the same in every language.
const lang0 = "en"

// exerciseFiles returns the files of a new exercise id of kind, with the
// texts t.
func exerciseFiles(id string, kind course.Kind, t texts) ([]File, error) {
	dir := path.Join("exercises", id)
	m := map[string]any{
		"$schema": "../../docs/schema/exercise.schema.json",
		"id":      id, "kind": string(kind), "points": 1,
		"title": map[string]string{"de": t["title"]["de"], "en": t["title"]["en"]},
	}
	order := []string{"$schema", "id", "kind", "points", "title", "imports"}
	data := map[string]string{"ID": id, "Doc": t["skeleton_doc"][lang0], "Todo": t["todo"][lang0]}
	var files []File
	if kind.Traits().Data {
		m["imports"] = []string{}
		answers := []string{t["answer"][lang0]}
		m["answers"] = answers
		// A quiz's points are its number of cases, one per answer; the
		// loader refuses a quiz whose points say otherwise.
		m["points"] = len(answers)
		order = append(order, "answers")
		for _, lang := range course.Languages {
			files = append(files,
				File{path.Join(dir, "task."+lang+".md"), render("quiz-task.md", lang, map[string]string{"ID": id, "Intro": t["quiz_intro"][lang]})},
				File{path.Join(dir, "quiz."+lang+".md"), []byte(t["quiz"][lang])},
				File{path.Join(dir, "hints."+lang+".md"), []byte(t["quiz_hints"][lang])},
				File{path.Join(dir, "skeleton", lang, id+".go"), render("quiz-skeleton.go", lang, data)},
			)
		}
	} else {
		m["imports"] = []string{"errors", "fmt", "math", "strconv", "strings", "sync", "sync/atomic"}
		solution := render("solution.go", "", data)
		suite := render("suite.json", "", map[string]string{"ID": id, "Test": t["test"]["en"],
			"TitleDE": t["test_title"]["de"], "TitleEN": t["test_title"]["en"]})
		driver, err := generate(id, solution, suite)
		if err != nil {
			return nil, err
		}
		for _, lang := range course.Languages {
			files = append(files,
				File{path.Join(dir, "task."+lang+".md"), execute(template.Must(template.New("").Parse(t["task"][lang])), data)},
				File{path.Join(dir, "hints."+lang+".md"), []byte(t["hints"][lang])},
				File{path.Join(dir, "skeleton", lang, id+".go"), render("skeleton.go", lang, map[string]string{"ID": id, "Doc": t["skeleton_doc"][lang]})},
			)
		}
		files = append(files, misconceptionFiles(dir, id, data, t)...)
		files = append(files,
			File{path.Join(dir, "solution", id+".go"), solution},
			File{path.Join(dir, "testdata", "suite.json"), suite},
			File{path.Join(dir, "testdata", "driver.go"), driver},
		)
	}
	meta, err := indentJSON(m, order)
	if err != nil {
		return nil, err
	}
	files = append([]File{{path.Join(dir, "exercise.json"), meta}}, files...)
	slices.SortStableFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// Course returns the files of a new course: one lesson, a trace exercise
// and a quiz, with example texts in both languages, and the JSON Schemas of
// its metadata files under docs/schema/. kurs validate accepts it as it is.
func Course() ([]File, error) {
	var files []File
	meta, err := indentJSON(map[string]any{
		"$schema": "../../docs/schema/lesson.schema.json",
		"id":      "first-steps", "order": 1, "minutes": 15, "exercises": []string{"counter", "counterquiz"},
		"title": map[string]string{"de": "Erste Schritte", "en": "First steps"},
	}, []string{"$schema", "id", "order", "title", "minutes", "exercises"})
	if err != nil {
		return nil, err
	}
	files = append(files, File{"lessons/first-steps/lesson.json", meta})
	for _, lang := range course.Languages {
		files = append(files, File{"lessons/first-steps/" + lang + ".md", render("example-lesson.md", lang, nil)})
	}
	trace, err := exerciseFiles("counter", course.KindTrace, exampleTexts())
	if err != nil {
		return nil, err
	}
	quiz, err := exerciseFiles("counterquiz", course.KindQuiz, exampleTexts())
	if err != nil {
		return nil, err
	}
	// The example's misconception comes with its signatures, which kurs
	// validate --signatures would record: without them validate warns
	// that kurs check cannot name it, of a course the author has not
	// touched yet. The tests compare the file with what validate records.
	trace = append(trace, File{"exercises/counter/misconceptions/" + course.SignaturesFile, mustRead("templates/example/signatures.json")})
	slices.SortStableFunc(trace, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	files = append(append(files, trace...), quiz...)
	names := make([]string, 0, 2)
	schemas := course.Schemas()
	for name := range schemas {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		files = append(files, File{"docs/schema/" + name, schemas[name]})
	}
	return files, nil
}

// Driver returns testdata/driver.go of exercise id, generated from its
// reference solution and suite.json. It refuses when the file exists and
// was written by hand. (The API check is derived at every check.)
func Driver(fsys fs.FS, id string) ([]File, error) {
	dir := path.Join("exercises", id)
	if _, err := fs.Stat(fsys, dir); err != nil {
		return nil, &Error{Kind: UnknownEx, Args: []any{"Exercise", id}}
	}
	p := path.Join(dir, "testdata", "driver.go")
	if data, err := fs.ReadFile(fsys, p); err == nil && !tracegen.IsGenerated(data) {
		return nil, &Error{Kind: HandWritten, Args: []any{"Path", p}}
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
	var s course.Suite
	if err := course.Decode(path.Join(dir, "testdata", "suite.json"), suite, &s); err != nil {
		return nil, &Error{Kind: Unparsable, Args: []any{"Path", path.Join(dir, "testdata", "suite.json"), "Err", err.Error()}}
	}
	driver, err := tracegen.Driver(id, api, s)
	if err != nil {
		return nil, err // tracegen.Mistakes: the caller explains each
	}
	return []File{{path.Join(dir, "testdata", "driver.go"), driver}}, nil
}

func generate(id string, solution, suite []byte) ([]byte, error) {
	a, err := tracegen.ParseAPI([]course.File{{Name: id + ".go", Data: solution}})
	if err != nil {
		return nil, err
	}
	var s course.Suite
	if err := course.Decode("suite.json", suite, &s); err != nil {
		return nil, err
	}
	return tracegen.Driver(id, a, s)
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
		var l struct {
			ID    string `json:"id"`
			Order int    `json:"order"`
		}
		if json.Unmarshal(data, &l) == nil && l.ID == d.Name() {
			out = append(out, &course.Lesson{ID: l.ID, Order: l.Order})
		}
	}
	return out
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

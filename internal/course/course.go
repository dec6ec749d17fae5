// Package course reads a course: its lessons and exercises, from any fs.FS
// laid out as the repository's lessons/ and exercises/ folders.
//
// It only reads and checks the structure; building and running exercises is
// the checker's job.
package course

import (
	"embed"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/internal/harness"
)

// quizProgram holds the test program and the reference solution of every
// quiz, filled in from its data.
//
//go:embed quiz/driver.go.tmpl quiz/solution.go.tmpl
var quizProgram embed.FS

// Languages are the languages every course text must exist in.
var Languages = []string{"de", "en"}

// Text is a text in several languages, keyed by language code.
type Text map[string]string

// In returns the text in lang, or in English when it is missing.
func (t Text) In(lang string) string {
	if s, ok := t[lang]; ok {
		return s
	}
	return t["en"]
}

// Course is a set of lessons and the exercises that belong to them.
type Course struct {
	Lessons   []*Lesson
	Exercises []*Exercise
	fsys      fs.FS
}

// Lesson is one lesson: a Markdown text per language and its exercises.
// It is read from lessons/ID/lesson.json (see lessonMeta) and the files
// de.md and en.md beside it.
type Lesson struct {
	ID string
	// IDs holds the lesson's id in other languages than its folder's
	// ("en": "fault-tolerance" for fehlertoleranz); the lesson can be named
	// by each of them.
	IDs   Text
	Order int
	Title Text
	// Minutes is how long the lesson takes, exercises included.
	Minutes int
	// Exercises are the ids of the lesson's exercises, in order. This is
	// the only place that says which lesson an exercise belongs to.
	Exercises []string
	fsys      fs.FS
}

// lessonMeta is the strict form of lesson.json; docs/schema/
// lesson.schema.json publishes it.
type lessonMeta struct {
	Schema    string   `json:"$schema,omitempty"`
	ID        string   `json:"id"`
	IDs       Text     `json:"ids,omitempty"`
	Order     int      `json:"order"`
	Title     Text     `json:"title"`
	Minutes   int      `json:"minutes,omitempty"`
	Exercises []string `json:"exercises"`
}

// IDIn returns the lesson's id in lang: its entry in IDs, else ID.
func (l *Lesson) IDIn(lang string) string {
	if id, ok := l.IDs[lang]; ok && id != "" {
		return id
	}
	return l.ID
}

// Markdown returns the lesson's text in lang.
func (l *Lesson) Markdown(lang string) ([]byte, error) {
	return fs.ReadFile(l.fsys, lang+".md")
}

// Exercise is one graded exercise. It is read from the files of its folder
// exercises/ID/: exercise.json (see exerciseMeta), the task and hints in
// task.LANG.md and hints.LANG.md, a quiz's cases in quiz.LANG.md, and a
// trace exercise's hidden tests in testdata/suite.json.
type Exercise struct {
	ID string
	// Lesson and Order are the lesson that lists the exercise and the
	// exercise's place in that list, from 1; Lesson is "" when no lesson
	// lists it.
	Lesson string
	Order  int
	Points int
	Title  Text
	// Summary is the task, in Markdown: task.LANG.md, for a quiz with
	// its cases and options in place of the line QuizMarker.
	Summary Text
	// Imports is the allowlist: the packages learner code may import.
	Imports []string
	// Hints are the hints per language, gentle to specific: one per "## "
	// section of hints.LANG.md.
	Hints map[string][]string
	// Quiz holds a quiz's cases, from quiz.LANG.md and the answers in
	// exercise.json.
	Quiz []QuizCase
	// Support names folders that hold Go packages the test program needs
	// besides the driver (e.g. a simulator), relative to the exercise's
	// folder: "sim", or "../leastconn/sim" to share another exercise's.
	// Each is compiled at its import path
	// github.com/kurs-course/kurs/exercises/ID/DIR, so the same package
	// serves the lesson's own tests and every check.
	Support []string
	// Concurrent marks an exercise whose value is used from several
	// goroutines at once; its driver stresses it besides the traces.
	Concurrent bool
	// Suite holds the hidden tests: a trace exercise's
	// testdata/suite.json, or one test per case of a quiz.
	Suite Suite
	kind  Kind
	// answers are a quiz's right options, one per case.
	answers []string
	// lines holds where parts of the text files begin (see Line).
	lines map[string]int
	fsys  fs.FS
	// exercises is the course's exercises/ folder, for shared support
	// packages.
	exercises fs.FS
	misc      *misconceptions
}

// exerciseMeta is the strict form of exercise.json; docs/schema/
// exercise.schema.json publishes it.
type exerciseMeta struct {
	Schema     string   `json:"$schema,omitempty"`
	ID         string   `json:"id"`
	Kind       Kind     `json:"kind"`
	Points     int      `json:"points"`
	Title      Text     `json:"title"`
	Imports    []string `json:"imports"`
	Support    []string `json:"support,omitempty"`
	Concurrent bool     `json:"concurrent,omitempty"`
	Answers    []string `json:"answers,omitempty"`
}

// Kind returns how the exercise is graded, as exercise.json says.
func (e *Exercise) Kind() Kind { return e.kind }

// QuizCase is one case of a quiz: a question, its options and the right
// one, in every language.
type QuizCase struct {
	// Case numbers the cases from 1.
	Case int
	// Label is the case's heading in quiz.LANG.md ("Fall 1", "Case 1").
	Label Text
	// Question is the case's question, in Markdown.
	Question Text
	// Choices holds each option's text, by letter.
	Choices map[string]Text
	// Options holds, by letter, why each option is right or wrong.
	Options map[string]Text
	// Answer is the right option's letter.
	Answer string
}

// Line returns the line where a part of the exercise's text files begins,
// or 0: "hints.de.2" (the third hint of hints.de.md), "quiz.en.0" (the
// first case of quiz.en.md), "quiz.en.0.B" (its option B) and
// "quiz.en.0.B.why" (that option's explanation).
func (e *Exercise) Line(part string) int { return e.lines[part] }

// File is a Go source file of an exercise.
type File struct {
	Name string
	Data []byte
}

// Skeleton returns the files a new workspace gets, with comments in lang.
func (e *Exercise) Skeleton(lang string) ([]File, error) {
	return goFiles(e.fsys, path.Join("skeleton", lang))
}

// Solution returns the reference solution's files: solution/*.go, or for
// an exercise that is data (a quiz) one file made from its answers, which
// exercise.json holds.
func (e *Exercise) Solution() ([]File, error) {
	if e.Traits().Data {
		return []File{e.quizFile("solution.go")}, nil
	}
	return goFiles(e.fsys, "solution")
}

// Tests returns the test program's files: the driver (package main) and the
// API check that is compiled into the learner's package (see APICheck). A
// quiz's driver is the same for every quiz and made here, so a quiz needs
// no Go of its own.
func (e *Exercise) Tests() (driver, api []File, err error) {
	sol, err := e.Solution()
	if err != nil {
		return nil, nil, err
	}
	check, err := APICheck(e.ID, sol)
	if err != nil {
		return nil, nil, fmt.Errorf("exercise %s: the reference solution: %w", e.ID, err)
	}
	api = []File{{Name: "api.go", Data: check}}
	if e.Traits().Data {
		return []File{e.quizFile("driver.go")}, api, nil
	}
	files, err := goFiles(e.fsys, "testdata")
	if err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		if f.Name != "api.go" { // obsolete: the API check is derived
			driver = append(driver, f)
		}
	}
	if len(driver) == 0 {
		return nil, nil, fmt.Errorf("exercise %s: testdata/ needs driver.go", e.ID)
	}
	return driver, api, nil
}

// quizFile fills in one of the files every quiz shares.
func (e *Exercise) quizFile(name string) File {
	data, _ := quizProgram.ReadFile("quiz/" + name + ".tmpl")
	answers := make([]string, len(e.Quiz))
	for i, c := range e.Quiz {
		answers[i] = strconv.Quote(c.Answer)
	}
	r := strings.NewReplacer("{{ID}}", e.ID, "{{CASES}}", strconv.Itoa(len(e.Quiz)), "{{ANSWERS}}", strings.Join(answers, ", "))
	if name == "solution.go" {
		name = e.ID + ".go"
	}
	return File{Name: name, Data: []byte(r.Replace(string(data)))}
}

// SupportFiles returns the non-test .go files of each support folder,
// keyed by the folder's path below the course's exercises/ folder (e.g.
// "leastconn/sim").
func (e *Exercise) SupportFiles() (map[string][]File, error) {
	out := map[string][]File{}
	for _, dir := range e.Support {
		rel := path.Clean(path.Join(e.ID, dir))
		if path.IsAbs(dir) || !fs.ValidPath(rel) || strings.Contains("/"+rel+"/", "/testdata/") {
			return nil, fmt.Errorf("exercise %s: support folder %q must be a folder of an exercise", e.ID, dir)
		}
		files, err := goFiles(e.exercises, rel)
		if err != nil {
			return nil, fmt.Errorf("exercise %s: %w", e.ID, err)
		}
		out[rel] = slices.DeleteFunc(files, func(f File) bool { return strings.HasSuffix(f.Name, "_test.go") })
	}
	return out, nil
}

// TestPoints returns the points a test is worth and the exercise's points
// when all tests pass: tests without points are all-or-nothing.
func (e *Exercise) TestPoints() (perTest map[string]int, any bool) {
	perTest = map[string]int{}
	for _, t := range e.Suite.Tests {
		if t.Points > 0 {
			perTest[t.Name], any = t.Points, true
		}
	}
	return perTest, any
}

// Exercise returns the exercise with the given id.
func (c *Course) Exercise(id string) (*Exercise, bool) {
	for _, e := range c.Exercises {
		if e.ID == id {
			return e, true
		}
	}
	return nil, false
}

// Lesson returns the lesson with the given id, in any language.
func (c *Course) Lesson(id string) (*Lesson, bool) {
	for _, l := range c.Lessons {
		if l.ID == id {
			return l, true
		}
	}
	for _, l := range c.Lessons {
		for _, other := range l.IDs {
			if other == id {
				return l, true
			}
		}
	}
	return nil, false
}

// FS returns the file system the course was read from.
func (c *Course) FS() fs.FS { return c.fsys }

// Load reads a course from fsys, which holds lessons/ and exercises/. Every
// error is an *Error, with its file and line, joined: a lesson or exercise
// with an error in one of its files is left out, the others are loaded.
func Load(fsys fs.FS) (*Course, error) {
	return load(fsys, nil)
}

// LoadExercises reads a course from fsys as Load does, with every lesson
// but only the exercises whose ids are named (those that exist): what a
// check of some exercises needs, without reading every exercise's files.
// The exercises' errors are Load's; the other exercises' are not found.
func LoadExercises(fsys fs.FS, ids []string) (*Course, error) {
	return load(fsys, func(id string) bool { return slices.Contains(ids, id) })
}

// load is Load, of the exercises that keep accepts (nil: all).
func load(fsys fs.FS, keep func(id string) bool) (*Course, error) {
	c := &Course{fsys: fsys}
	var errs []error
	lessons, err := fs.ReadDir(fsys, "lessons")
	if err != nil {
		return nil, fmt.Errorf("read lessons: %w", err)
	}
	for _, d := range lessons {
		if !d.IsDir() {
			continue
		}
		l, err := loadLesson(fsys, d.Name())
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.Lessons = append(c.Lessons, l)
	}
	slices.SortStableFunc(c.Lessons, func(a, b *Lesson) int { return a.Order - b.Order })
	exercises, err := fs.ReadDir(fsys, "exercises")
	if err != nil {
		return nil, fmt.Errorf("read exercises: %w", err)
	}
	for _, d := range exercises {
		if !d.IsDir() || keep != nil && !keep(d.Name()) {
			continue
		}
		e, ferrs := loadExercise(fsys, d.Name())
		if len(ferrs) > 0 {
			errs = append(errs, ferrs...)
			continue
		}
		c.Exercises = append(c.Exercises, e)
	}
	// Membership and order are stated once, in the lessons.
	rank := map[string]int{}
	for li, l := range c.Lessons {
		for i, id := range l.Exercises {
			e, ok := c.Exercise(id)
			if !ok {
				continue // validate reports it
			}
			if e.Lesson != "" {
				errs = append(errs, &Error{File: path.Join("lessons", l.ID, "lesson.json"), Line: lineOfKey(fsys, path.Join("lessons", l.ID, "lesson.json"), "exercises"),
					Code: ErrListedTwice, Args: []any{"Exercise", id, "Lesson", e.Lesson},
					Msg: fmt.Sprintf("the exercise %s is listed by the lesson %s already", id, e.Lesson)})
				continue
			}
			e.Lesson, e.Order = l.ID, i+1
			rank[id] = li*10000 + i
		}
	}
	slices.SortStableFunc(c.Exercises, func(a, b *Exercise) int {
		ra, oka := rank[a.ID]
		rb, okb := rank[b.ID]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	if len(c.Exercises) == 0 && len(errs) == 0 {
		errs = append(errs, errors.New("no exercises"))
	}
	return c, errors.Join(errs...)
}

// loadLesson reads lessons/dir/lesson.json.
func loadLesson(fsys fs.FS, dir string) (*Lesson, error) {
	file := path.Join("lessons", dir, "lesson.json")
	var m lessonMeta
	if err := readStrict(fsys, file, &m); err != nil {
		return nil, err
	}
	if m.ID != dir {
		return nil, &Error{File: file, Line: lineOfKey(fsys, file, "id"), Code: ErrIDMismatch, Args: []any{"ID", m.ID, "Dir", dir},
			Msg: fmt.Sprintf("the id %q differs from the folder's name %s", m.ID, dir)}
	}
	return &Lesson{ID: m.ID, IDs: m.IDs, Order: m.Order, Title: m.Title, Minutes: m.Minutes, Exercises: m.Exercises,
		fsys: sub(fsys, path.Join("lessons", dir))}, nil
}

// loadExercise reads the files of exercises/dir, reporting the first
// error of each file.
func loadExercise(fsys fs.FS, dir string) (*Exercise, []error) {
	root := path.Join("exercises", dir)
	file := path.Join(root, "exercise.json")
	var m exerciseMeta
	if err := readStrict(fsys, file, &m); err != nil {
		return nil, []error{err}
	}
	e := &Exercise{ID: m.ID, Points: m.Points, Title: m.Title, Imports: m.Imports, Support: m.Support,
		Concurrent: m.Concurrent, kind: m.Kind, answers: m.Answers,
		fsys: sub(fsys, root), exercises: sub(fsys, "exercises"), misc: &misconceptions{}}
	if err := e.validID(fsys, file, dir); err != nil {
		return nil, []error{err}
	}
	if !slices.Contains(Kinds, m.Kind) {
		return nil, []error{&Error{File: file, Line: lineOfKey(fsys, file, "kind"), Code: ErrKind, Args: []any{"Got", string(m.Kind)},
			Msg: fmt.Sprintf("the kind %q is none of %s", m.Kind, kindNames(Kinds))}}
	}
	var errs []error
	if err := e.loadTexts(root); err != nil {
		errs = append(errs, err)
	}
	if e.Traits().Data {
		for i := range e.Quiz {
			e.Suite.Tests = append(e.Suite.Tests, harness.Test{Name: fmt.Sprintf("case%d", i+1), Case: i + 1, Points: 1})
		}
		// Each case is worth one point: a quiz's points are its number of
		// cases, or the maximum would disagree with the sum of its cases
		// (one of two right would pass as 1 of 1, and fail).
		if len(e.Quiz) > 0 && e.Points != len(e.Quiz) {
			errs = append(errs, &Error{File: file, Line: lineOfKey(fsys, file, "points"), Code: ErrQuizPoints,
				Args: []any{"Points", e.Points, "Cases", len(e.Quiz)},
				Msg:  fmt.Sprintf("points is %d, but the quiz has %d cases, each worth 1 point", e.Points, len(e.Quiz))})
		}
	} else {
		sfile := path.Join(root, "testdata", "suite.json")
		if err := readStrict(fsys, sfile, &e.Suite); err != nil {
			errs = append(errs, err)
		} else if len(e.Suite.Tests) == 0 {
			errs = append(errs, &Error{File: sfile, Line: lineOfKey(fsys, sfile, "tests"), Code: "no_fixed_traces", Args: []any{"Exercise", dir},
				Msg: "there are no tests"})
		}
	}
	return e, errs
}

// kindNames lists kinds for a message: "trace" and "quiz".
func kindNames(kinds []Kind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = strconv.Quote(string(k))
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// validID reports an id that differs from its folder or cannot serve as a
// Go package name and a folder name, as the workspace needs.
func (e *Exercise) validID(fsys fs.FS, file, dir string) error {
	if e.ID != dir {
		return &Error{File: file, Line: lineOfKey(fsys, file, "id"), Code: ErrIDMismatch, Args: []any{"ID", e.ID, "Dir", dir},
			Msg: fmt.Sprintf("the id %q differs from the folder's name %s", e.ID, dir)}
	}
	if !ValidID(e.ID) {
		return &Error{File: file, Line: lineOfKey(fsys, file, "id"), Code: ErrIDInvalid, Args: []any{"ID", e.ID},
			Msg: fmt.Sprintf("the id %q cannot be an exercise id: lower-case letters and digits, starting with a letter, and no Go keyword", e.ID)}
	}
	return nil
}

// ValidID reports whether id can be an exercise's Go package and folder
// name: lower-case letters and digits, starting with a letter, no keyword.
func ValidID(id string) bool {
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

func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // fs.Sub fails only for an invalid path, which dir never is
	}
	return s
}

// goFiles returns the .go files directly in dir, in name order.
func goFiles(fsys fs.FS, dir string) ([]File, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var files []File
	for _, d := range entries {
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".go") {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(dir, d.Name()))
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: d.Name(), Data: data})
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no .go files", dir)
	}
	return files, nil
}

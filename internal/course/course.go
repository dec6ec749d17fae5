// Package course reads a course: its lessons and exercises, from any fs.FS
// laid out as the repository's lessons/ and exercises/ folders.
//
// It only reads and checks the structure; building and running exercises is
// the checker's job.
package course

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/internal/harness"
)

// quizProgram holds the test program and API check of every quiz.
//
//go:embed quiz/driver.go.tmpl quiz/api.go.tmpl
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
type Lesson struct {
	ID string `json:"id"`
	// IDs holds the lesson's id in other languages than its folder's
	// ("en": "fault-tolerance" for fehlertoleranz); the lesson can be named
	// by each of them.
	IDs       Text     `json:"ids,omitempty"`
	Order     int      `json:"order"`
	Title     Text     `json:"title"`
	Minutes   int      `json:"minutes"`
	Exercises []string `json:"exercises"`
	fsys      fs.FS
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

// Exercise is one graded exercise.
type Exercise struct {
	ID      string              `json:"id"`
	Lesson  string              `json:"lesson"`
	Order   int                 `json:"order"`
	Points  int                 `json:"points"`
	Title   Text                `json:"title"`
	Summary Text                `json:"summary"`
	Imports []string            `json:"imports"`
	Hints   map[string][]string `json:"hints"`
	Quiz    []QuizCase          `json:"quiz,omitempty"`
	// Support names folders that hold Go packages the test program needs
	// besides the driver (e.g. a simulator), relative to the exercise's
	// folder: "sim", or "../leastconn/sim" to share another exercise's.
	// Each is compiled at its import path
	// github.com/kurs-course/kurs/exercises/ID/DIR, so the same package
	// serves the lesson's own tests and every check.
	Support []string `json:"support,omitempty"`
	// Suite holds the hidden tests, from testdata/suite.json.
	Suite harness.Suite `json:"-"`
	fsys  fs.FS
	// exercises is the course's exercises/ folder, for shared support
	// packages.
	exercises fs.FS
}

// Kind is how an exercise is graded.
type Kind string

// Kinds of exercises.
const (
	// KindTrace exercises are graded by traces of calls, compared with the
	// reference by a judge (including measured outcomes).
	KindTrace Kind = "trace"
	// KindQuiz exercises are graded by reading the learner's answers,
	// which are never run.
	KindQuiz Kind = "quiz"
)

// Kind returns how the exercise is graded.
func (e *Exercise) Kind() Kind {
	if len(e.Quiz) > 0 {
		return KindQuiz
	}
	return KindTrace
}

// QuizCase holds, for one case of a quiz, why each option is right or wrong.
type QuizCase struct {
	Case    int             `json:"case"`
	Options map[string]Text `json:"options"`
}

// File is a Go source file of an exercise.
type File struct {
	Name string
	Data []byte
}

// Skeleton returns the files a new workspace gets, with comments in lang.
func (e *Exercise) Skeleton(lang string) ([]File, error) {
	return goFiles(e.fsys, path.Join("skeleton", lang))
}

// Solution returns the reference solution's files.
func (e *Exercise) Solution() ([]File, error) { return goFiles(e.fsys, "solution") }

// Tests returns the test program's files: the driver (package main) and the
// API check that is compiled into the learner's package. A quiz's are the
// same for every quiz and made here, so a quiz needs no Go of its own.
func (e *Exercise) Tests() (driver, api []File, err error) {
	if e.Kind() == KindQuiz {
		cases := 0
		for _, t := range e.Suite.Tests {
			cases = max(cases, t.Case)
		}
		gen := func(name string) File {
			data, _ := quizProgram.ReadFile("quiz/" + name + ".tmpl")
			r := strings.NewReplacer("{{ID}}", e.ID, "{{CASES}}", strconv.Itoa(cases))
			return File{Name: name, Data: []byte(r.Replace(string(data)))}
		}
		return []File{gen("driver.go")}, []File{gen("api.go")}, nil
	}
	files, err := goFiles(e.fsys, "testdata")
	if err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		if f.Name == "api.go" {
			api = append(api, f)
		} else {
			driver = append(driver, f)
		}
	}
	if len(driver) == 0 || len(api) == 0 {
		return nil, nil, fmt.Errorf("exercise %s: testdata/ needs driver.go and api.go", e.ID)
	}
	return driver, api, nil
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

// Load reads a course from fsys, which holds lessons/ and exercises/.
func Load(fsys fs.FS) (*Course, error) {
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
		l := &Lesson{fsys: sub(fsys, path.Join("lessons", d.Name()))}
		if err := readJSON(l.fsys, "lesson.json", l); err != nil {
			errs = append(errs, fmt.Errorf("lesson %s: %w", d.Name(), err))
			continue
		}
		if l.ID != d.Name() {
			errs = append(errs, fmt.Errorf("lesson %s: id %q differs from its folder", d.Name(), l.ID))
			continue
		}
		c.Lessons = append(c.Lessons, l)
	}
	exercises, err := fs.ReadDir(fsys, "exercises")
	if err != nil {
		return nil, fmt.Errorf("read exercises: %w", err)
	}
	for _, d := range exercises {
		if !d.IsDir() {
			continue
		}
		e := &Exercise{fsys: sub(fsys, path.Join("exercises", d.Name())), exercises: sub(fsys, "exercises")}
		if err := readJSON(e.fsys, "exercise.json", e); err != nil {
			errs = append(errs, fmt.Errorf("exercise %s: %w", d.Name(), err))
			continue
		}
		if err := readJSON(e.fsys, "testdata/suite.json", &e.Suite); err != nil {
			errs = append(errs, fmt.Errorf("exercise %s: %w", d.Name(), err))
			continue
		}
		if err := e.validID(d.Name()); err != nil {
			errs = append(errs, err)
			continue
		}
		c.Exercises = append(c.Exercises, e)
	}
	slices.SortStableFunc(c.Lessons, func(a, b *Lesson) int { return a.Order - b.Order })
	slices.SortStableFunc(c.Exercises, func(a, b *Exercise) int {
		if a.Lesson != b.Lesson {
			la, _ := c.Lesson(a.Lesson)
			lb, _ := c.Lesson(b.Lesson)
			if la != nil && lb != nil {
				return la.Order - lb.Order
			}
		}
		return a.Order - b.Order
	})
	if len(c.Exercises) == 0 && len(errs) == 0 {
		errs = append(errs, errors.New("no exercises"))
	}
	return c, errors.Join(errs...)
}

// validID reports whether the exercise's id can serve as a Go package name
// and a folder name, as the workspace needs.
func (e *Exercise) validID(dir string) error {
	if e.ID != dir {
		return fmt.Errorf("exercise %s: id %q differs from its folder", dir, e.ID)
	}
	for i, r := range e.ID {
		if !(r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return fmt.Errorf("exercise %s: id must be lower-case letters and digits", dir)
		}
	}
	if len(e.Suite.Tests) == 0 {
		return fmt.Errorf("exercise %s: testdata/suite.json has no tests", dir)
	}
	return nil
}

func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // fs.Sub fails only for an invalid path, which dir never is
	}
	return s
}

func readJSON(fsys fs.FS, name string, v any) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
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

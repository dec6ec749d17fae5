package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
)

// refused are the packages the checker never allows a learner, whatever an
// exercise's allowlist says (docs/architecture.md).
var refused = []string{"os", "os/exec", "syscall", "unsafe", "net", "reflect", "runtime", "embed", "C"}

// readJSON reads and decodes a course file, reporting a missing file or a
// syntax error. It reports whether v holds the file's content.
func (v *validator) readJSON(file string, val any) bool {
	data, err := fs.ReadFile(v.fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		v.add(file, 0, MissingFile)
		return false
	}
	if err != nil {
		v.add(file, 0, Load, "Err", err.Error())
		return false
	}
	if line, err := decodeJSON(data, val); err != nil {
		v.add(file, line, JSON, "Err", err.Error())
		return false
	}
	if v.json == nil {
		v.json = map[string]jsonLines{}
	}
	v.json[file] = scanJSON(data)
	return true
}

// structure reads the course's folders and JSON files itself, so that
// every file that cannot be read is reported with its line, then loads the
// course with the course package. It returns nil when there is no course
// at all.
func (v *validator) structure() *course.Course {
	v.broken = map[string]bool{}
	for _, kind := range []string{"lessons", "exercises"} {
		entries, err := fs.ReadDir(v.fsys, kind)
		if err != nil {
			v.add(kind, 0, MissingFile)
			continue
		}
		for _, d := range entries {
			if !d.IsDir() {
				continue
			}
			dir := path.Join(kind, d.Name())
			if !v.readItem(kind, dir, d.Name()) {
				v.broken[dir] = true
			}
		}
	}
	c, err := course.Load(v.fsys)
	if c == nil {
		return nil
	}
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else if err != nil {
		errs = []error{err}
	}
	for _, e := range errs {
		// The loader's errors start "lesson X:" or "exercise X:"; those
		// already reported with a line need no second, vaguer report.
		s := e.Error()
		kind, rest, _ := strings.Cut(s, " ")
		name, _, _ := strings.Cut(rest, ":")
		dir := map[string]string{"lesson": "lessons", "exercise": "exercises"}[kind]
		switch {
		case dir != "" && v.broken[path.Join(dir, name)]:
		case s == "no exercises":
			v.add("exercises", 0, NoExercises)
		default:
			v.add("", 0, Load, "Err", s)
		}
	}
	return c
}

// readItem checks the JSON files of one lesson or exercise folder and
// reports whether the course package will be able to load it.
func (v *validator) readItem(kind, dir, name string) bool {
	if kind == "lessons" {
		file := path.Join(dir, "lesson.json")
		var l struct {
			ID string `json:"id"`
		}
		if !v.readJSON(file, &l) {
			return false
		}
		if l.ID != name {
			v.add(file, v.at(file, "id"), IDMismatch, "ID", l.ID, "Dir", name)
			return false
		}
		return true
	}
	file := path.Join(dir, "exercise.json")
	var e struct {
		ID string `json:"id"`
	}
	ok := v.readJSON(file, &e)
	var suite struct {
		Tests []json.RawMessage `json:"tests"`
	}
	sfile := path.Join(dir, "testdata", "suite.json")
	sok := v.readJSON(sfile, &suite)
	if !ok {
		return false
	}
	if e.ID != name {
		v.add(file, v.at(file, "id"), IDMismatch, "ID", e.ID, "Dir", name)
		return false
	}
	if !validID(e.ID) {
		v.add(file, v.at(file, "id"), IDInvalid, "ID", e.ID)
		return false
	}
	if sok && len(suite.Tests) == 0 {
		v.add(sfile, v.at(sfile, "tests"), NoFixedTraces, "Exercise", name)
		return false
	}
	return sok
}

// validID reports whether id can be an exercise's Go package and folder
// name: lower-case letters and digits, starting with a letter, no keyword.
func validID(id string) bool {
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

// texts checks that every text exists in every language and that lessons
// and exercises name each other.
func (v *validator) texts(c *course.Course) {
	for _, l := range c.Lessons {
		file := path.Join("lessons", l.ID, "lesson.json")
		for _, lang := range course.Languages {
			if strings.TrimSpace(l.Title[lang]) == "" {
				v.add(file, v.at(file, "title."+lang), TextMissing, "Field", "title", "Lang", lang)
			}
			if _, err := l.Markdown(lang); err != nil {
				v.add(file, v.at(file, "id"), LessonText, "Lang", lang, "Want", path.Join("lessons", l.ID, lang+".md"))
			}
		}
		for i, id := range l.Exercises {
			if _, ok := c.Exercise(id); !ok && !v.broken[path.Join("exercises", id)] {
				v.add(file, v.at(file, "exercises."+strconv.Itoa(i)), ExerciseUnknown, "Exercise", id)
			}
		}
	}
	for _, ex := range c.Exercises {
		file := path.Join("exercises", ex.ID, "exercise.json")
		if l, ok := c.Lesson(ex.Lesson); !ok {
			v.add(file, v.at(file, "lesson"), LessonUnknown, "Lesson", ex.Lesson)
		} else if !slices.Contains(l.Exercises, ex.ID) {
			lf := path.Join("lessons", l.ID, "lesson.json")
			v.add(lf, v.at(lf, "exercises"), LessonOmits, "Exercise", ex.ID)
		}
		if ex.Points <= 0 {
			v.add(file, v.at(file, "points"), Points)
		}
		for _, lang := range course.Languages {
			for _, f := range []struct {
				name string
				text course.Text
			}{{"title", ex.Title}, {"summary", ex.Summary}} {
				if strings.TrimSpace(f.text[lang]) == "" {
					v.add(file, v.at(file, f.name+"."+lang), TextMissing, "Field", f.name, "Lang", lang)
				}
			}
			if len(ex.Hints[lang]) == 0 {
				v.add(file, v.at(file, "hints."+lang), HintsMissing, "Lang", lang)
			}
			for i, h := range ex.Hints[lang] {
				if strings.TrimSpace(h) == "" {
					v.add(file, v.at(file, fmt.Sprintf("hints.%s.%d", lang, i)), HintsMissing, "Lang", lang)
				}
			}
			if _, err := ex.Skeleton(lang); err != nil {
				v.add(file, v.at(file, "id"), SkeletonMissing, "Lang", lang, "Want", path.Join("exercises", ex.ID, "skeleton", lang)+"/")
			}
		}
		if de, en := len(ex.Hints["de"]), len(ex.Hints["en"]); de > 0 && en > 0 && de != en {
			v.add(file, v.at(file, "hints"), HintsCount, "DE", de, "EN", en)
		}
		for i, q := range ex.Quiz {
			letters := make([]string, 0, len(q.Options))
			for letter := range q.Options {
				letters = append(letters, letter)
			}
			slices.Sort(letters)
			for _, letter := range letters {
				for _, lang := range course.Languages {
					if strings.TrimSpace(q.Options[letter][lang]) == "" {
						p := fmt.Sprintf("quiz.%d.options.%s", i, letter)
						v.add(file, v.at(file, p+"."+lang), TextMissing, "Field", fmt.Sprintf("quiz %d, %s", q.Case, letter), "Lang", lang)
					}
				}
			}
		}
		for i, imp := range ex.Imports {
			if slices.Contains(refused, imp) {
				v.add(file, v.at(file, "imports."+strconv.Itoa(i)), AllowlistRefused, "Import", imp)
			}
		}
		if _, err := ex.Solution(); err != nil {
			v.add(path.Join("exercises", ex.ID, "solution")+"/", 0, MissingFile)
		}
	}
}

// todoMarker marks what an author has still to write; kurs new puts it
// wherever a scaffold needs the author's words. Skeletons keep their plain
// "TODO" for the learner.
const todoMarker = "TODO(author)"

// todos reports every line of the course that still holds todoMarker.
func (v *validator) todos() {
	_ = fs.WalkDir(v.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if !strings.HasPrefix(p, "lessons/") && !strings.HasPrefix(p, "exercises/") {
			return nil
		}
		switch path.Ext(p) {
		case ".md", ".json", ".go":
		default:
			return nil
		}
		data, err := fs.ReadFile(v.fsys, p)
		if err != nil {
			return nil
		}
		for i, line := range strings.Split(string(data), "\n") {
			if _, after, ok := strings.Cut(line, todoMarker); ok {
				text := strings.Trim(strings.TrimSpace(after), `:",`)
				v.add(p, i+1, Todo, "Text", strings.TrimSpace(text))
			}
		}
		return nil
	})
}

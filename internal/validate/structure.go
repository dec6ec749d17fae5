package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/course"
)

// refused are the packages the checker never allows a learner, whatever an
// exercise's allowlist says (docs/architecture.md).
var refused = []string{"os", "os/exec", "syscall", "unsafe", "net", "reflect", "runtime", "embed", "C"}

// scanJSON remembers where the values of a course file are, for problems
// found later in what it says. A file that is missing or not valid JSON
// is the loader's to report.
func (v *validator) scanJSON(file string) {
	data, err := fs.ReadFile(v.fsys, file)
	if err != nil || !json.Valid(data) {
		return
	}
	if v.json == nil {
		v.json = map[string]jsonLines{}
	}
	v.json[file] = scanJSON(data)
}

// readJSON reads and strictly decodes a course file that the course
// package does not read (mutants.json), reporting what is wrong with it. It
// reports whether val holds the file's content.
func (v *validator) readJSON(file string, val any) bool {
	data, err := fs.ReadFile(v.fsys, file)
	if err != nil {
		v.add(file, 0, Load, "Err", err.Error())
		return false
	}
	var ce *course.Error
	if err := course.Decode(file, data, val); errors.As(err, &ce) {
		v.add(ce.File, ce.Line, Kind(ce.Code), ce.Args...)
		return false
	}
	v.scanJSON(file)
	return true
}

// structure loads the course with the course package, which reads every
// metadata file strictly, and reports what it refuses with its file and
// line: one problem per file at most, so that no mistake is followed by
// others it caused. A lesson.json, exercise.json or suite.json whose only
// mistakes are unknown keys is the exception: every one is reported, and
// the loader reads the file without them, so that what else is wrong with
// the lesson or exercise is reported in the same run. A lesson.json or
// exercise.json with a key that is likely a typo of one it takes (a
// "titel") is not: without the value the key meant, the lesson or exercise
// would show mistakes that are none. (A suite.json's test without a value
// its misspelt key meant runs with the default, and the run shows that.)
// It returns nil when there is no course at all.
func (v *validator) structure() *course.Course {
	v.broken = map[string]bool{}
	overlay := overlayFS{FS: v.fsys, files: map[string][]byte{}}
	lenient := func(file string) {
		v.scanJSON(file)
		data, err := fs.ReadFile(v.fsys, file)
		if err != nil {
			return
		}
		clean, unknown, ok := withoutUnknownKeys(file, data, func() any { return course.Form(path.Base(file)) })
		if !ok || path.Base(file) != "suite.json" && misspelt(unknown) {
			return
		}
		overlay.files[file] = clean
		for _, ce := range unknown {
			v.add(ce.File, ce.Line, Kind(ce.Code), ce.Args...)
		}
	}
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
			if kind == "lessons" {
				lenient(path.Join(dir, "lesson.json"))
			} else {
				lenient(path.Join(dir, "exercise.json"))
				lenient(path.Join(dir, "testdata", "suite.json"))
			}
		}
	}
	c, err := course.Load(overlay)
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
		var ce *course.Error
		switch {
		case errors.As(e, &ce):
			v.add(ce.File, ce.Line, Kind(ce.Code), ce.Args...)
			if parts := strings.SplitN(ce.File, "/", 3); len(parts) == 3 {
				v.broken[parts[0]+"/"+parts[1]] = true
			}
		case e.Error() == "no exercises":
			v.add("exercises", 0, NoExercises)
		default:
			v.add("", 0, Load, "Err", e.Error())
		}
	}
	v.unread(errs)
	return c
}

// misspelt reports whether one of the unknown keys is likely a typo of a
// key the file takes: the loader names that key (Near).
func misspelt(unknown []*course.Error) bool {
	for _, ce := range unknown {
		for i := 0; i+1 < len(ce.Args); i += 2 {
			if near, ok := ce.Args[i+1].(string); ce.Args[i] == "Near" && ok && near != "" {
				return true
			}
		}
	}
	return false
}

// unread reads the files the course loader skipped because an earlier
// file of the same exercise failed: an exercise.json it could not read
// stops it before testdata/suite.json and the misconceptions (each one's
// misconception.json, signatures.json), and an author
// should not have to fix one file to hear about the next. Every problem
// comes with its file and line, as the loader's do.
func (v *validator) unread(errs []error) {
	failed := map[string]bool{}
	for _, e := range errs {
		var ce *course.Error
		if errors.As(e, &ce) {
			failed[ce.File] = true
		}
	}
	for file := range failed {
		dir, name := path.Split(file)
		if name != "exercise.json" || !strings.HasPrefix(dir, "exercises/") {
			continue
		}
		v.decodeUnread(path.Join(dir, "testdata", "suite.json"), &course.Suite{}, failed)
		misc := path.Join(dir, course.MisconceptionsDir)
		v.decodeUnread(path.Join(misc, course.SignaturesFile), &course.Signatures{}, failed)
		entries, _ := fs.ReadDir(v.fsys, misc)
		for _, e := range entries {
			if e.IsDir() {
				v.decodeUnread(path.Join(misc, e.Name(), "misconception.json"), &misconceptionMeta{}, failed)
			}
		}
	}
}

// misconceptionMeta is the strict form of misconception.json, as the
// course loader decodes it (docs/schema/misconception.schema.json).
type misconceptionMeta struct {
	Schema   string   `json:"$schema,omitempty"`
	CaughtBy []string `json:"caught_by,omitempty"`
}

// decodeUnread strictly decodes file into val, if it exists and is not
// among the files reported already, and reports what is wrong with it.
func (v *validator) decodeUnread(file string, val any, failed map[string]bool) {
	data, err := fs.ReadFile(v.fsys, file)
	if err != nil || failed[file] {
		return // no such file (a quiz has no suite), or reported already
	}
	var ce *course.Error
	if err := course.Decode(file, data, val); errors.As(err, &ce) {
		v.add(ce.File, ce.Line, Kind(ce.Code), ce.Args...)
	}
}

// mayBeMissing are the kinds of problem that name a file because it is
// missing; every other problem names a file that exists.
var mayBeMissing = map[Kind]bool{MissingFile: true, TaskMissing: true, HintsMissing: true, QuizCases: true}

// existing makes every problem name a file that exists: a problem about
// a file that is not there (a suite.json of an exercise that has none)
// names the nearest folder that is, so that an author is never sent to
// look for a file that cannot be found.
func (v *validator) existing() {
	for i := range v.problems {
		p := &v.problems[i]
		if p.File == "" || mayBeMissing[p.Kind] {
			continue
		}
		name := strings.TrimSuffix(p.File, "/")
		if _, err := fs.Stat(v.fsys, name); err == nil {
			continue
		}
		for name != "." {
			name = path.Dir(name)
			if _, err := fs.Stat(v.fsys, name); err == nil {
				break
			}
		}
		p.File, p.Line = name+"/", 0
		if name == "." {
			p.File = ""
		}
	}
}

// texts checks that every text exists in every language and that every
// exercise belongs to a lesson. What only one kind of exercise has is
// checked by kind, in code.
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
	// A lesson that cannot be read may be the one that lists an exercise.
	brokenLesson := false
	for dir := range v.broken {
		brokenLesson = brokenLesson || strings.HasPrefix(dir, "lessons/")
	}
	for _, ex := range c.Exercises {
		dir := path.Join("exercises", ex.ID)
		file := path.Join(dir, "exercise.json")
		if ex.Lesson == "" && !brokenLesson {
			v.add(file, v.at(file, "id"), LessonNone, "Exercise", ex.ID)
		}
		if ex.Points <= 0 {
			v.add(file, v.at(file, "points"), Points)
		}
		for _, lang := range course.Languages {
			if strings.TrimSpace(ex.Title[lang]) == "" {
				v.add(file, v.at(file, "title."+lang), TextMissing, "Field", "title", "Lang", lang)
			}
			task := path.Join(dir, "task."+lang+".md")
			if strings.TrimSpace(ex.Summary[lang]) == "" {
				v.add(task, 0, TaskMissing, "Lang", lang)
			}
			hints := path.Join(dir, "hints."+lang+".md")
			if len(ex.Hints[lang]) == 0 {
				v.add(hints, 0, HintsMissing, "Lang", lang)
			}
			for i, h := range ex.Hints[lang] {
				if strings.TrimSpace(h) == "" {
					v.add(hints, ex.Line(fmt.Sprintf("hints.%s.%d", lang, i)), HintsMissing, "Lang", lang)
				}
			}
			if _, err := ex.Skeleton(lang); err != nil {
				v.add(file, v.at(file, "id"), SkeletonMissing, "Lang", lang, "Want", path.Join(dir, "skeleton", lang)+"/")
			}
		}
		if de, en := len(ex.Hints["de"]), len(ex.Hints["en"]); de > 0 && en > 0 && de != en {
			file, line, other := v.hintsBlame(ex, de, en)
			v.add(file, line, HintsCount, "DE", de, "EN", en, "Other", other)
		}
		for i, imp := range ex.Imports {
			if slices.Contains(refused, imp) {
				v.add(file, v.at(file, "imports."+strconv.Itoa(i)), AllowlistRefused, "Import", imp)
			}
		}
		if _, err := fs.Stat(v.fsys, path.Join(dir, "testdata", "api.go")); err == nil {
			v.add(path.Join(dir, "testdata", "api.go"), 0, Obsolete, "Kind", string(ex.Kind()), "Data", ex.Traits().Data)
		}
	}
}

// editGap is how much later than its counterpart a file must have been
// written to count as the one an author changed.
const editGap = time.Minute

// hintsBlame decides which hints file to blame when the languages have
// different numbers of hints: the file the author changed last, when the
// file system keeps times and the one with fewer hints is newer (a hint
// was removed there); otherwise the one with more, at its first hint
// without a counterpart (a hint was added there). It returns that file,
// the line, and the other file.
func (v *validator) hintsBlame(ex *course.Exercise, de, en int) (file string, line int, other string) {
	more, fewer, n := "de", "en", en
	if en > de {
		more, fewer, n = "en", "de", de
	}
	dir := path.Join("exercises", ex.ID)
	mfile, ffile := path.Join(dir, "hints."+more+".md"), path.Join(dir, "hints."+fewer+".md")
	mi, merr := fs.Stat(v.fsys, mfile)
	fi, ferr := fs.Stat(v.fsys, ffile)
	// Files written together (a checkout, an unpacked archive) are seconds
	// apart at most; an edit comes later.
	if merr == nil && ferr == nil && !mi.ModTime().IsZero() && fi.ModTime().Sub(mi.ModTime()) > editGap {
		return ffile, 0, mfile
	}
	return mfile, ex.Line(fmt.Sprintf("hints.%s.%d", more, n)), ffile
}

// quiz checks what a quiz has beyond other exercises: every case and
// option in both languages, an explanation for every option, one right
// answer per case that is one of its options, the place of the cases in
// the task, and no Go of its own besides the skeletons.
func (v *validator) quiz(ex *course.Exercise) {
	dir := path.Join("exercises", ex.ID)
	file := path.Join(dir, "exercise.json")
	for _, lang := range course.Languages {
		task := path.Join(dir, "task."+lang+".md")
		if data, err := fs.ReadFile(v.fsys, task); err == nil && !strings.Contains(string(data), course.QuizMarker) {
			v.add(task, 0, QuizMarker, "Marker", course.QuizMarker)
		}
	}
	if len(ex.Quiz) == 0 {
		v.add(path.Join(dir, "quiz.en.md"), 0, QuizCases)
	}
	// The cases hold only the answers that have a case: count the letters
	// exercise.json gives, which may be more.
	var meta struct {
		Answers []string `json:"answers"`
	}
	data, _ := fs.ReadFile(v.fsys, file)
	_ = json.Unmarshal(data, &meta) // the loader has decoded it strictly
	switch n := len(meta.Answers); {
	case n < len(ex.Quiz):
		v.add(file, v.at(file, "answers"), QuizAnswers, "Want", len(ex.Quiz), "Got", n)
	case n > len(ex.Quiz) && len(ex.Quiz) > 0:
		v.add(file, v.at(file, "answers."+strconv.Itoa(len(ex.Quiz))), QuizAnswersExtra, "Want", len(ex.Quiz), "Got", n, "Extra", n-len(ex.Quiz))
	}
	for i, c := range ex.Quiz {
		letters := c.Letters()
		for _, lang := range course.Languages {
			qfile := path.Join(dir, "quiz."+lang+".md")
			at := func(part string) int {
				if n := ex.Line(fmt.Sprintf("quiz.%s.%d%s", lang, i, part)); n > 0 {
					return n
				}
				return ex.Line(fmt.Sprintf("quiz.%s.%d", lang, i))
			}
			if strings.TrimSpace(c.Question[lang]) == "" {
				v.add(qfile, at(""), QuizQuestion, "Case", c.Case, "Lang", lang)
			}
			for _, letter := range letters {
				if strings.TrimSpace(c.Choices[letter][lang]) == "" {
					v.add(qfile, at("."+letter), QuizOption, "Case", c.Case, "Lang", lang, "Letter", letter)
				}
				if strings.TrimSpace(c.Options[letter][lang]) == "" {
					v.add(qfile, at("."+letter), QuizWhy, "Case", c.Case, "Lang", lang, "Letter", letter)
				}
			}
		}
		if c.Answer != "" && !slices.Contains(letters, c.Answer) {
			v.add(file, v.at(file, "answers."+strconv.Itoa(i)), QuizAnswer, "Case", c.Case, "Answer", c.Answer, "Options", strings.Join(letters, ", "))
		}
	}
	for _, f := range []string{"solution", "testdata"} {
		if _, err := fs.Stat(v.fsys, path.Join(dir, f)); err == nil {
			v.add(path.Join(dir, f)+"/", 0, Obsolete, "Kind", string(ex.Kind()), "Data", ex.Traits().Data)
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
				// kurs new names the example's test with the marker, in
				// suite.json and in the caught_by of its misconception:
				// there the text is a test's name, not words to replace.
				kind := Todo
				switch {
				case path.Base(p) == "misconception.json":
					kind = TodoCaughtBy
				case path.Base(p) == "suite.json" && strings.Contains(line, `"name"`):
					kind = TodoTestName
				}
				v.add(p, i+1, kind, "Text", strings.TrimSpace(text))
			}
		}
		return nil
	})
}

package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/kurs-course/kurs/internal/atomicfile"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/scaffold"
	"github.com/kurs-course/kurs/internal/tracegen"
	"github.com/kurs-course/kurs/internal/validate"
)

// newOptions are the options of kurs new.
type newOptions struct {
	lesson string // the lesson a new exercise belongs to
	kind   string // the kind of a new exercise
}

func newVerb() *verb {
	return command("new", func(o *newOptions, fs *flag.FlagSet) {
		fs.StringVar(&o.lesson, "lesson", "", "")
		fs.StringVar(&o.kind, "kind", string(course.KindTrace), "")
	}, scaffoldNew)
}

// scaffoldNew scaffolds a whole course in a new folder, or a lesson or an
// exercise in a course folder (--course, else the current folder), and
// regenerates an exercise's driver. It never overwrites a file an author
// wrote.
func scaffoldNew(e *env, o *newOptions, args []string) error {
	lesson, kind := o.lesson, o.kind
	if len(args) != 2 {
		return e.usageErr("validate.new_args")
	}
	_, _ = e.workspace() // only for its language
	if args[0] == "course" {
		return e.newCourse(args[1])
	}
	dir := e.g.course
	if dir == "" {
		dir = "."
	}
	root, err := e.abs(dir)
	if err != nil {
		return err
	}
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		return &usageError{e.p.T("error.course_dir", "Dir", root)}
	}
	fsys := os.DirFS(root)
	what, id := args[0], args[1]
	var files []scaffold.File
	switch what {
	case "lesson":
		files, err = scaffold.Lesson(fsys, id)
	case "exercise":
		files, err = scaffold.Exercise(fsys, id, lesson, course.Kind(kind))
	case "driver":
		files, err = scaffold.Driver(fsys, id)
	default:
		return e.usageErr("validate.new_args")
	}
	if err != nil {
		if se, ok := scaffold.IsError(err); ok && se.Kind == scaffold.NoCourse {
			se.Args = append(se.Args, "Dir", root)
		}
		return e.newError(fsys, id, err)
	}
	if what == "driver" {
		// Generated files: replacing them is their purpose, and Driver
		// has made sure they are not hand-written.
		for _, f := range files {
			if err := atomicfile.WriteFile(filepath.Join(root, filepath.FromSlash(f.Path)), f.Data, 0o644); err != nil {
				return err
			}
			e.say("validate.new_wrote", "File", f.Path)
		}
		return nil
	}
	if err := e.createFiles(root, files, e.p.T(key("validate.new_created_", what), "ID", id)); err != nil {
		return err
	}
	if what == "exercise" {
		e.listInLesson(root, fsys, lesson, id)
	}
	// Without --course, kurs validate checks the built-in course, so
	// the hint names the folder.
	courseFlag := " --course ."
	if e.g.course != "" {
		courseFlag = " --course " + shellWord(e.g.course)
	}
	next := key("validate.new_next_", what)
	if what == "exercise" && course.Kind(kind).Traits().Data {
		next = "validate.new_next_quiz"
	}
	e.say(next, "ID", id, "Course", courseFlag)
	return nil
}

// listInLesson adds the new exercise id to the "exercises" of its lesson's
// lesson.json, written atomically, and says so; when it cannot, it tells
// the author to add it, naming the file.
func (e *env) listInLesson(root string, fsys fs.FS, lesson, id string) {
	file := scaffold.LessonFile(fsys, lesson)
	if file == "" {
		return // Exercise found the lesson; it is gone meanwhile
	}
	data, err := fs.ReadFile(fsys, file)
	if err == nil {
		data, err = scaffold.ListIn(data, id)
	}
	if err == nil {
		err = atomicfile.WriteFile(filepath.Join(root, filepath.FromSlash(file)), data, 0o644)
	}
	if err != nil {
		e.say("validate.new_list_yourself", "ID", id, "File", file)
		return
	}
	e.say("validate.new_listed", "ID", id, "File", file)
}

// newCourse creates a course in dir, which must not exist or be empty.
func (e *env) newCourse(dir string) error {
	root, err := e.abs(dir)
	if err != nil {
		return err
	}
	if entries, err := os.ReadDir(root); err == nil && len(entries) > 0 {
		return e.usageErr("validate.new_exists", "Path", dir)
	}
	files, err := scaffold.Course()
	if err != nil {
		return err
	}
	if err := e.createFiles(root, files, e.p.T("validate.new_created_course", "Dir", dir)); err != nil {
		return err
	}
	e.say("validate.new_next_course", "Dir", shellWord(dir))
	return nil
}

// createFiles creates new files under root (see create), then says what
// was created: done, and the files, wrapped to the terminal as say
// does: a path too long for it goes on after a slash.
func (e *env) createFiles(root string, files []scaffold.File, done string) error {
	if err := create(root, files); err != nil {
		var exists *existsError
		if errors.As(err, &exists) {
			return e.usageErr("validate.new_exists", "Path", exists.path)
		}
		return err
	}
	e.stdout().Println(done)
	for _, f := range files {
		e.stdout().Println("  " + f.Path)
	}
	return nil
}

type existsError struct{ path string }

func (e *existsError) Error() string { return e.path + " exists" }

// create writes new files under root. It checks first that none exists,
// so that it writes all or nothing, and creates each exclusively, so that
// a file made meanwhile is not overwritten either.
func create(root string, files []scaffold.File) error {
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f.Path))); err == nil {
			return &existsError{f.Path}
		}
	}
	for _, f := range files {
		name := filepath.Join(root, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		out, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return &existsError{f.Path}
		}
		if err != nil {
			return err
		}
		if _, err := out.Write(f.Data); err != nil {
			out.Close()
			return err
		}
		if err := out.Close(); err != nil {
			return err
		}
	}
	return nil
}

// newError explains why kurs new refused, in the author's language.
func (e *env) newError(fsys fs.FS, id string, err error) error {
	var ms tracegen.Mistakes
	if errors.As(err, &ms) {
		file := path.Join("exercises", id, "testdata", "suite.json")
		lines := jsonLinesOf(fsys, file)
		var msgs []string
		for _, m := range ms {
			msg := e.p.T(key("validate.gen_", m.Kind), m.Args...)
			msgs = append(msgs, fmt.Sprintf("%s:%d: %s", file, lines(m.Path), e.p.T("validate.problem_generate", "Detail", msg)))
		}
		return &usageError{strings.Join(msgs, "\n")}
	}
	if se, ok := scaffold.IsError(err); ok {
		return e.usageErr(key("validate.new_", se.Kind), se.Args...)
	}
	return err
}

// jsonLinesOf returns a function giving the line of a JSON path in file,
// for messages; 1 when it cannot tell.
func jsonLinesOf(fsys fs.FS, file string) func(string) int {
	data, err := fs.ReadFile(fsys, file)
	if err != nil || !json.Valid(data) {
		return func(string) int { return 1 }
	}
	return func(p string) int { return validate.JSONLine(data, p) }
}

package scaffold_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/scaffold"
	"github.com/kurs-course/kurs/internal/tracegen"
	"github.com/kurs-course/kurs/internal/validate"
)

func add(m fstest.MapFS, files []scaffold.File) {
	for _, f := range files {
		m[f.Path] = &fstest.MapFile{Data: f.Data}
	}
}

func kind(t *testing.T, err error) string {
	t.Helper()
	e, ok := scaffold.IsError(err)
	require.True(t, ok, "%v", err)
	return e.Kind
}

// TestNewCourseListsWhatIsLeft scaffolds a lesson and an exercise into an
// empty course: kurs validate then reports exactly what the author has
// still to write, and nothing that works already (the example exercise
// builds, its reference passes, its skeletons fail).
func TestNewCourseListsWhatIsLeft(t *testing.T) {
	m := fstest.MapFS{}
	_, err := scaffold.Exercise(m, "fixedwindow", "", course.KindTrace)
	assert.Equal(t, scaffold.NoCourse, kind(t, err), "an exercise needs a course")
	m["exercises/other/exercise.json"] = &fstest.MapFile{Data: []byte(`{"id": "other"}`)}
	_, err = scaffold.Exercise(m, "fixedwindow", "", course.KindTrace)
	assert.Equal(t, scaffold.NoLesson, kind(t, err), "an exercise needs a lesson")
	delete(m, "exercises/other/exercise.json")

	files, err := scaffold.Lesson(m, "limits")
	require.NoError(t, err)
	add(m, files)
	files, err = scaffold.Exercise(m, "fixedwindow", "", course.KindTrace)
	require.NoError(t, err)
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	assert.Equal(t, []string{
		"exercises/fixedwindow/exercise.json",
		"exercises/fixedwindow/hints.de.md",
		"exercises/fixedwindow/hints.en.md",
		"exercises/fixedwindow/misconceptions/add-sets-the-count/de.md",
		"exercises/fixedwindow/misconceptions/add-sets-the-count/en.md",
		"exercises/fixedwindow/misconceptions/add-sets-the-count/fixedwindow.go",
		"exercises/fixedwindow/misconceptions/add-sets-the-count/misconception.json",
		"exercises/fixedwindow/skeleton/de/fixedwindow.go",
		"exercises/fixedwindow/skeleton/en/fixedwindow.go",
		"exercises/fixedwindow/solution/fixedwindow.go",
		"exercises/fixedwindow/task.de.md",
		"exercises/fixedwindow/task.en.md",
		"exercises/fixedwindow/testdata/driver.go",
		"exercises/fixedwindow/testdata/suite.json",
	}, paths)
	add(m, files)

	r, err := validate.Run(context.Background(), m, validate.Options{Jobs: 2})
	require.NoError(t, err)
	var got []string
	for _, p := range r.Problems {
		got = append(got, fmt.Sprintf("%s:%d %s %v", p.File, p.Line, p.Kind, p.Args))
	}
	assert.Equal(t, []string{
		"exercises/fixedwindow/exercise.json:3 lesson_none [Exercise fixedwindow]",
		"exercises/fixedwindow/exercise.json:7 text_missing [Field title Lang de]",
		"exercises/fixedwindow/exercise.json:8 text_missing [Field title Lang en]",
		"exercises/fixedwindow/hints.de.md:3 todo [Text Ein erster, sanfter Hinweis. Jeder Abschnitt „## “ ist ein Hinweis, vom sanften zum genauen.]",
		"exercises/fixedwindow/hints.en.md:3 todo [Text A first, gentle hint. Every \"## \" section is one hint, from gentle to specific.]",
		"exercises/fixedwindow/misconceptions/add-sets-the-count/de.md:1 todo [Text Der Fehler als Annahme der Lernenden, in einer Zeile]",
		"exercises/fixedwindow/misconceptions/add-sets-the-count/de.md:3 todo [Text Was die Lernenden vermutlich annehmen, warum das scheitert und]",
		"exercises/fixedwindow/misconceptions/add-sets-the-count/en.md:1 todo [Text the mistake, as the learner's belief, in one line]",
		"exercises/fixedwindow/misconceptions/add-sets-the-count/en.md:3 todo [Text what the learner probably believes, why it breaks and which]",
		"exercises/fixedwindow/misconceptions/add-sets-the-count/fixedwindow.go:6 todo [Text replace this example with a mistake learners make.]",
		"exercises/fixedwindow/misconceptions/add-sets-the-count/misconception.json:4 todo_caught_by [Text seed/worked-example]",
		"exercises/fixedwindow/skeleton/de/fixedwindow.go:3 todo [Text Beschreibe die Aufgabe für die Lernenden.]",
		"exercises/fixedwindow/skeleton/en/fixedwindow.go:3 todo [Text describe the task for the learners.]",
		"exercises/fixedwindow/solution/fixedwindow.go:3 todo [Text replace this example with the reference solution.]",
		"exercises/fixedwindow/task.de.md:1 todo [Text Die Aufgabe für die Lernenden, in Markdown.]",
		"exercises/fixedwindow/task.en.md:1 todo [Text The task for the learners, in Markdown.]",
		"exercises/fixedwindow/testdata/suite.json:14 todo_test_name [Text seed/worked-example]",
		"exercises/fixedwindow/testdata/suite.json:16 todo [Text Was der Test prüft, in einer kurzen Zeile]",
		"exercises/fixedwindow/testdata/suite.json:17 todo [Text What the test checks, in one short line]",
		"lessons/limits/de.md:1 todo [Text Titel der Lektion]",
		"lessons/limits/de.md:3 todo [Text Ein Satz dazu, worum es geht und wie lange die Lektion dauert.]",
		"lessons/limits/de.md:7 todo [Text Was die Lernenden am Ende können.]",
		"lessons/limits/de.md:11 todo [Text Das Konzept, Schritt für Schritt. Eine durchgerechnete Tabelle]",
		"lessons/limits/de.md:18 todo [Text Die Übungen der Lektion, jeweils mit `kurs check ÜBUNG`.]",
		"lessons/limits/de.md:22 todo [Text Das Wichtigste in einem Satz.]",
		"lessons/limits/en.md:1 todo [Text title of the lesson]",
		"lessons/limits/en.md:3 todo [Text A sentence on what this is about and how long the lesson takes.]",
		"lessons/limits/en.md:7 todo [Text What learners can do by the end.]",
		"lessons/limits/en.md:11 todo [Text The concept, step by step. A worked table can be tied to a]",
		"lessons/limits/en.md:17 todo [Text The lesson's exercises, each with `kurs check EXERCISE`.]",
		"lessons/limits/en.md:21 todo [Text The essentials in one sentence.]",
		"lessons/limits/lesson.json:6 text_missing [Field title Lang de]",
		"lessons/limits/lesson.json:7 text_missing [Field title Lang en]",
	}, got)
}

func problems(t *testing.T, m fstest.MapFS) []string {
	t.Helper()
	r, err := validate.Run(context.Background(), m, validate.Options{Jobs: 2})
	require.NoError(t, err)
	var got []string
	for _, p := range r.Problems {
		got = append(got, fmt.Sprintf("%s:%d %s %v", p.File, p.Line, p.Kind, p.Args))
	}
	return got
}

// TestNewQuiz scaffolds a quiz: one case with two options in both
// languages and no Go but its skeletons; kurs validate lists only the
// words left to write.
func TestNewQuiz(t *testing.T) {
	m := fstest.MapFS{}
	files, err := scaffold.Lesson(m, "limits")
	require.NoError(t, err)
	add(m, files)
	_, err = scaffold.Exercise(m, "limitquiz", "", "essay")
	assert.Equal(t, scaffold.BadKind, kind(t, err))
	files, err = scaffold.Exercise(m, "limitquiz", "", course.KindQuiz)
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".go") {
			assert.Contains(t, f.Path, "/skeleton/", "a quiz has no Go but its skeletons")
		}
	}
	add(m, files)
	m["lessons/limits/lesson.json"].Data = []byte(`{"id": "limits", "order": 1, "title": {"de": "Grenzen", "en": "Limits"}, "exercises": ["limitquiz"]}`)
	var left []string
	for _, p := range problems(t, m) {
		if !strings.Contains(p, " todo ") {
			left = append(left, p)
		}
	}
	assert.Equal(t, []string{
		"exercises/limitquiz/exercise.json:7 text_missing [Field title Lang de]",
		"exercises/limitquiz/exercise.json:8 text_missing [Field title Lang en]",
	}, left, "the scaffold works as a quiz: the reference answer passes, the skeletons fail")
}

// TestNewCourseIsValid: a new course is a course kurs validate accepts as
// it is, with the schemas its metadata files name.
func TestNewCourseIsValid(t *testing.T) {
	files, err := scaffold.Course()
	require.NoError(t, err)
	m := fstest.MapFS{}
	add(m, files)
	r, err := validate.Run(context.Background(), m, validate.Options{Jobs: 2})
	require.NoError(t, err)
	assert.Empty(t, r.Problems)
	assert.Empty(t, r.Warnings, "a new course needs no kurs validate --signatures")
	// The recorded signatures are those validate --signatures writes; when
	// the example changes, write its output to
	// templates/example/signatures.json.
	require.Len(t, r.Signatures, 1)
	sig := r.Signatures[0]
	require.Contains(t, m, sig.Path)
	assert.Equal(t, string(sig.Data), string(m[sig.Path].Data))
	assert.Contains(t, m, "docs/schema/exercise.schema.json")
	assert.Contains(t, m, "docs/schema/lesson.schema.json")
	assert.Contains(t, string(m["exercises/counterquiz/exercise.json"].Data), `"$schema": "../../docs/schema/exercise.schema.json"`)
}

func TestIDs(t *testing.T) {
	m := fstest.MapFS{}
	for _, id := range []string{"", "Limits", "3rd", "-x", "x-", "über"} {
		_, err := scaffold.Lesson(m, id)
		assert.Equal(t, scaffold.BadLessonID, kind(t, err), "%q", id)
	}
	files, err := scaffold.Lesson(m, "resilienz-3")
	require.NoError(t, err)
	add(m, files)
	for _, id := range []string{"", "Fixed", "fixed-window", "fixed_window", "func", "main", "1x"} {
		_, err := scaffold.Exercise(m, id, "", "")
		assert.Equal(t, scaffold.BadExerciseID, kind(t, err), "%q", id)
	}
	_, err = scaffold.Lesson(m, "resilienz-3")
	assert.Equal(t, scaffold.Exists, kind(t, err))
	_, err = scaffold.Exercise(m, "window", "resilienz-9", "")
	assert.Equal(t, scaffold.UnknownLesson, kind(t, err))
	files, err = scaffold.Exercise(m, "window2", "resilienz-3", "")
	require.NoError(t, err)
	add(m, files)
	_, err = scaffold.Exercise(m, "window2", "", "")
	assert.Equal(t, scaffold.Exists, kind(t, err))
}

// TestDriver regenerates the driver after the reference changes, and never
// replaces one written by hand.
func TestDriver(t *testing.T) {
	m := fstest.MapFS{}
	files, _ := scaffold.Lesson(m, "l")
	add(m, files)
	files, _ = scaffold.Exercise(m, "x", "l", "")
	add(m, files)
	before := string(m["exercises/x/testdata/driver.go"].Data)

	m["exercises/x/solution/x.go"].Data = append(m["exercises/x/solution/x.go"].Data, []byte("\n// Reset sets the count to 0.\nfunc (c *Counter) Reset() { c.n = 0 }\n")...)
	files, err := scaffold.Driver(m, "x")
	require.NoError(t, err)
	require.Len(t, files, 1)
	assert.NotEqual(t, before, string(files[0].Data))
	assert.Contains(t, string(files[0].Data), `case "Reset":`)

	m["exercises/x/testdata/suite.json"].Data = []byte(`{"observe": "Nothing", "tests": []}`)
	_, err = scaffold.Driver(m, "x")
	var ms tracegen.Mistakes
	require.ErrorAs(t, err, &ms)
	assert.Equal(t, "observe", ms[0].Path)

	m["exercises/x/testdata/driver.go"].Data = []byte("package main\n\nfunc main() {}\n")
	_, err = scaffold.Driver(m, "x")
	assert.Equal(t, scaffold.HandWritten, kind(t, err))
	_, err = scaffold.Driver(m, "y")
	assert.Equal(t, scaffold.UnknownEx, kind(t, err))
}

// A new exercise is added at the end of its lesson's list, in the list's
// layout, and the rest of the file stays byte for byte.
func TestListIn(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"id": "a", "exercises": []}`, `{"id": "a", "exercises": ["new"]}`},
		{"{\"exercises\": [\n  ],\n \"x\": 1}", "{\"exercises\": [\"new\"],\n \"x\": 1}"},
		{`{"exercises": ["a", "b"], "minutes": 5}`, `{"exercises": ["a", "b", "new"], "minutes": 5}`},
		{"{\n  \"title\": {\"exercises\": []},\n  \"exercises\": [\n    \"a\"\n  ]\n}\n", "{\n  \"title\": {\"exercises\": []},\n  \"exercises\": [\n    \"a\",\n    \"new\"\n  ]\n}\n"},
		{`{"exercises": ["new", "b"]}`, `{"exercises": ["new", "b"]}`},
	} {
		got, err := scaffold.ListIn([]byte(tc.in), "new")
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, string(got), tc.in)
	}
	for _, in := range []string{`{"id": "a"}`, `{"exercises": "a"}`, `[]`, `{"exercises": [`} {
		_, err := scaffold.ListIn([]byte(in), "new")
		assert.Error(t, err, in)
	}
}

package workspace

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
)

// fixture is a course of one exercise, circuitbreaker, with skeletons in
// both languages, so that these tests do not depend on the embedded
// course.
var fixture = fstest.MapFS{
	"lessons/l/lesson.json":                                  {Data: []byte(`{"id": "l", "exercises": ["circuitbreaker"]}`)},
	"exercises/circuitbreaker/exercise.json":                 {Data: []byte(`{"id": "circuitbreaker", "kind": "trace", "points": 4}`)},
	"exercises/circuitbreaker/testdata/suite.json":           {Data: []byte(`{"tests": [{"name": "t"}]}`)},
	"exercises/circuitbreaker/skeleton/en/circuitbreaker.go": {Data: []byte("// Package circuitbreaker is exercise 1.\npackage circuitbreaker\n")},
	"exercises/circuitbreaker/skeleton/de/circuitbreaker.go": {Data: []byte("// Package circuitbreaker ist Übung 1.\npackage circuitbreaker\n")},
}

// newWorkspace creates a workspace of the fixture course in lang and
// returns it with its exercise.
func newWorkspace(t *testing.T, lang string) (*Workspace, *course.Exercise) {
	t.Helper()
	c, err := course.Load(fixture)
	require.NoError(t, err)
	dir := t.TempDir()
	_, _, err = Init(dir, c, Config{Course: "embedded", Lang: lang}, lang)
	require.NoError(t, err)
	w, err := Open(dir)
	require.NoError(t, err)
	ex, ok := c.Exercise("circuitbreaker")
	require.True(t, ok)
	return w, ex
}

func read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(data)
}

func put(t *testing.T, name, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
}

func TestResetKeepsABackup(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	dir := w.ExerciseDir("circuitbreaker")
	put(t, filepath.Join(dir, "circuitbreaker.go"), "package circuitbreaker // mine\n")
	put(t, filepath.Join(dir, "helper.go"), "package circuitbreaker // my helper\n")
	put(t, filepath.Join(dir, "mine_test.go"), "package circuitbreaker // my test\n")
	put(t, filepath.Join(dir, "notes.txt"), "my notes\n")
	p, err := w.Progress()
	require.NoError(t, err)
	*p.Of("circuitbreaker") = ExerciseProgress{Status: "pass", Score: 4, MaxScore: 4, Passed: true, HintsSeen: 2}
	require.NoError(t, w.SaveProgress(p))

	backup, err := w.Reset(ex, "de")
	require.NoError(t, err)
	require.NotEmpty(t, backup)
	assert.Equal(t, "package circuitbreaker // mine\n", read(t, filepath.Join(backup, "circuitbreaker", "circuitbreaker.go")))
	assert.Equal(t, "package circuitbreaker // my helper\n", read(t, filepath.Join(backup, "circuitbreaker", "helper.go")))

	skeleton, err := ex.Skeleton("de")
	require.NoError(t, err)
	assert.Equal(t, string(skeleton[0].Data), read(t, filepath.Join(dir, "circuitbreaker.go")), "the German skeleton is back")
	assert.NoFileExists(t, filepath.Join(dir, "helper.go"), "a helper would break the skeleton's build")
	assert.FileExists(t, filepath.Join(dir, "mine_test.go"), "the learner's tests stay")
	assert.FileExists(t, filepath.Join(dir, "notes.txt"), "other files stay")

	q, err := w.Progress()
	require.NoError(t, err)
	assert.Equal(t, ExerciseProgress{MaxScore: 4, Passed: true, HintsSeen: 2}, *q.Of("circuitbreaker"),
		"the last check is forgotten; having passed and the hints seen are not")
}

func TestResetWithNothingToKeep(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	backup, err := w.Reset(ex, "en")
	require.NoError(t, err)
	assert.Empty(t, backup, "the skeleton is there already")
	assert.NoDirExists(t, filepath.Join(w.Dir, ".kurs", "backup"))

	require.NoError(t, os.RemoveAll(w.ExerciseDir("circuitbreaker")))
	backup, err = w.Reset(ex, "en")
	require.NoError(t, err)
	assert.Empty(t, backup, "no files, no backup")
	assert.FileExists(t, filepath.Join(w.ExerciseDir("circuitbreaker"), "circuitbreaker.go"))
}

// When the backup cannot be made, nothing of the learner's is touched.
func TestResetWithoutBackupChangesNothing(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	name := filepath.Join(w.ExerciseDir("circuitbreaker"), "circuitbreaker.go")
	put(t, name, "package circuitbreaker // mine\n")
	put(t, filepath.Join(w.Dir, ".kurs"), "a file where the backup folder should go")
	_, err := w.Reset(ex, "en")
	require.Error(t, err)
	assert.Equal(t, "package circuitbreaker // mine\n", read(t, name))
}

// The skeleton in another language is kurs's own: it is replaced without a
// backup.
func TestResetToAnotherLanguage(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	backup, err := w.Reset(ex, "de")
	require.NoError(t, err)
	assert.Empty(t, backup)
	skeleton, err := ex.Skeleton("de")
	require.NoError(t, err)
	assert.Equal(t, string(skeleton[0].Data), read(t, filepath.Join(w.ExerciseDir("circuitbreaker"), "circuitbreaker.go")))
}

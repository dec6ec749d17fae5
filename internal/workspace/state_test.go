package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
)

func state(t *testing.T, w *Workspace, id string) (State, int) {
	t.Helper()
	p, err := w.Progress()
	require.NoError(t, err)
	return p.State(id), p.Points(id)
}

// TestAPassIsRemembered follows a learner who passes, breaks the code and
// resets: the exercise stays passed before, with its points.
func TestAPassIsRemembered(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	st, pts := state(t, w, ex.ID)
	assert.Equal(t, NotStarted, st)
	assert.Zero(t, pts)

	require.NoError(t, w.Record(Outcome{Exercise: ex.ID, Status: StatusFail, Score: 0, MaxScore: 4}))
	st, _ = state(t, w, ex.ID)
	assert.Equal(t, Failing, st)
	assert.False(t, st.HasPassed())

	require.NoError(t, w.Record(Outcome{Exercise: ex.ID, Status: StatusPass, Score: 4, MaxScore: 4}))
	st, pts = state(t, w, ex.ID)
	assert.Equal(t, Passed, st)
	assert.Equal(t, 4, pts)

	require.NoError(t, w.Record(Outcome{Exercise: ex.ID, Status: StatusFail, Score: 0, MaxScore: 4}))
	st, pts = state(t, w, ex.ID)
	assert.Equal(t, PassedBefore, st)
	assert.True(t, st.HasPassed())
	assert.Equal(t, 4, pts, "the points of a pass stay")

	put(t, filepath.Join(w.ExerciseDir(ex.ID), "circuitbreaker.go"), "package circuitbreaker // mine\n")
	_, err := w.Reset(ex, "en")
	require.NoError(t, err)
	st, pts = state(t, w, ex.ID)
	assert.Equal(t, PassedUnchecked, st)
	assert.True(t, st.HasPassed())
	assert.Equal(t, 4, pts)
}

func TestOldProgressKeepsAPassesPoints(t *testing.T) {
	w, _ := newWorkspace(t, "en")
	require.NoError(t, os.MkdirAll(filepath.Join(w.Dir, ".kurs"), 0o755))
	put(t, w.progressFile(), `{"exercises": {"circuitbreaker": {"status": "fail", "score": 0, "max_score": 4, "passed": true}}}`)
	st, pts := state(t, w, "circuitbreaker")
	assert.Equal(t, PassedBefore, st)
	assert.Equal(t, 4, pts)
}

func TestNextHintFallsBackToEnglish(t *testing.T) {
	w, _ := newWorkspace(t, "de")
	ex := &course.Exercise{ID: "circuitbreaker", Hints: map[string][]string{"en": {"one", "two"}}}
	for _, want := range []Hint{{1, 2, "one"}, {2, 2, "two"}, {2, 2, "two"}} {
		h, err := w.NextHint(ex, "de")
		require.NoError(t, err)
		assert.Equal(t, want, h)
	}
	p, err := w.Progress()
	require.NoError(t, err)
	assert.Equal(t, []string{"one", "two"}, p.SeenHints(ex, "de"))
	h, err := w.NextHint(&course.Exercise{ID: "x"}, "de")
	require.NoError(t, err)
	assert.Zero(t, h.Total)
}

func TestSourcesAreTheCheckersFiles(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.go", "a.go", "a_test.go", ".x.go", "_y.go", "notes.txt"} {
		put(t, filepath.Join(dir, n), "package p\n")
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub.go"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(dir, "a.go"), filepath.Join(dir, "link.go")))
	names, err := Sources(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.go", "b.go"}, names)
}

// TestRestoreBringsBackTheResetFiles: reset keeps the learner's files,
// restore brings them back byte for byte, and keeps what it replaces.
func TestRestoreBringsBackTheResetFiles(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	dir := w.ExerciseDir(ex.ID)
	mine := "package circuitbreaker // mine\r\n\x00\xff"
	put(t, filepath.Join(dir, "circuitbreaker.go"), mine)
	put(t, filepath.Join(dir, "helper.go"), "package circuitbreaker // helper\n")
	_, err := w.Reset(ex, "en")
	require.NoError(t, err)

	saved, err := w.Backups(ex.ID)
	require.NoError(t, err)
	require.Len(t, saved, 1)
	assert.Equal(t, []string{"circuitbreaker.go", "helper.go"}, saved[0].Files)

	kept, err := w.Restore(ex, saved[0].Name)
	require.NoError(t, err)
	assert.Empty(t, kept, "the skeleton is kurs's: nothing to keep")
	assert.Equal(t, mine, read(t, filepath.Join(dir, "circuitbreaker.go")))
	assert.Equal(t, "package circuitbreaker // helper\n", read(t, filepath.Join(dir, "helper.go")))

	// Restoring over the learner's newer work keeps that work first.
	put(t, filepath.Join(dir, "circuitbreaker.go"), "package circuitbreaker // newer\n")
	kept, err = w.Restore(ex, saved[0].Name)
	require.NoError(t, err)
	require.NotEmpty(t, kept)
	assert.Equal(t, "package circuitbreaker // newer\n", read(t, filepath.Join(kept, ex.ID, "circuitbreaker.go")))
	assert.Equal(t, mine, read(t, filepath.Join(dir, "circuitbreaker.go")))

	_, err = w.Restore(ex, "../../etc")
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestBackupStaysInTheWorkspace(t *testing.T) {
	w := &Workspace{Dir: t.TempDir()}
	outside := filepath.Join(t.TempDir(), "secret.go")
	put(t, outside, "secret")
	require.NoError(t, os.Mkdir(filepath.Join(w.Dir, "ex"), 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(w.Dir, "ex", "link.go")))
	_, err := w.Backup("ex/link.go")
	assert.Error(t, err, "a link out of the workspace is not followed")
	_, err = w.Backup("../x.go")
	assert.Error(t, err)
}

// TestAnUntouchedSkeletonStaysNotStarted: a failing check of the skeleton
// as kurs init wrote it, in either language, records nothing; once the
// learner changes a byte, the same failure counts.
func TestAnUntouchedSkeletonStaysNotStarted(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	untouched, err := w.Untouched(ex)
	require.NoError(t, err)
	assert.True(t, untouched, "a new workspace")
	require.NoError(t, w.Record(Outcome{Exercise: ex.ID, Status: StatusFail, MaxScore: 4, Untouched: true}))
	st, _ := state(t, w, ex.ID)
	assert.Equal(t, NotStarted, st)

	// The German skeleton is kurs's too.
	_, err = w.Reset(ex, "de")
	require.NoError(t, err)
	untouched, err = w.Untouched(ex)
	require.NoError(t, err)
	assert.True(t, untouched, "the skeleton in German")

	name := filepath.Join(w.ExerciseDir(ex.ID), ex.ID+".go")
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(name, append(data, "\n// mine\n"...), 0o644))
	untouched, err = w.Untouched(ex)
	require.NoError(t, err)
	assert.False(t, untouched, "one line of the learner's")
	require.NoError(t, w.Record(Outcome{Exercise: ex.ID, Status: StatusFail, MaxScore: 4}))
	st, _ = state(t, w, ex.ID)
	assert.Equal(t, Failing, st)

	// Once passed, a check of the skeleton (after a reset) is failing code
	// like any other, and the pass keeps its points.
	require.NoError(t, w.Record(Outcome{Exercise: ex.ID, Status: StatusPass, Score: 4, MaxScore: 4}))
	require.NoError(t, w.Record(Outcome{Exercise: ex.ID, Status: StatusFail, MaxScore: 4, Untouched: true}))
	st, pts := state(t, w, ex.ID)
	assert.Equal(t, PassedBefore, st)
	assert.Equal(t, 4, pts)
}

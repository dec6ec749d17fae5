package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/session"
	"github.com/kurs-course/kurs/internal/workspace"
)

// open makes a workspace of the built-in course and a session over it.
func open(t *testing.T) (*session.Session, *workspace.Workspace, *course.Course) {
	t.Helper()
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	dir := t.TempDir()
	_, _, err = workspace.Init(dir, c, workspace.Config{Course: "embedded", Lang: "en"}, "en")
	require.NoError(t, err)
	ws, err := workspace.Open(dir)
	require.NoError(t, err)
	return session.New(ws, c, &checker.Checker{}), ws, c
}

// The quiz's skeleton with one answer given: begun, and failing.
const begun = "package bulkheadquiz\n\nvar Answer = [2]string{\"A\", \"\"}\n"

// kurs check without names compares each exercise with its skeleton once:
// in Select. The Check that follows takes Select's verdict, so an
// exercise Select found begun is recorded as begun even when its files
// turn back into the skeleton in between.
func TestCheckTakesSelectsVerdict(t *testing.T) {
	s, ws, c := open(t)
	ex, ok := c.Exercise("bulkheadquiz")
	require.True(t, ok)
	file := filepath.Join(ws.ExerciseDir(ex.ID), "bulkheadquiz.go")
	skeleton, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, []byte(begun), 0o644))

	todo, untouched, err := s.Select(c.Exercises, false)
	require.NoError(t, err)
	assert.Equal(t, []*course.Exercise{ex}, todo)
	assert.Len(t, untouched, len(c.Exercises)-1)

	require.NoError(t, os.WriteFile(file, skeleton, 0o644))
	outs, err := s.Check(context.Background(), todo)
	require.NoError(t, err)
	require.Len(t, outs, 1)
	assert.False(t, outs[0].Untouched, "Check compared the files with the skeleton again")
	prog, err := ws.Progress()
	require.NoError(t, err)
	assert.Equal(t, workspace.Failing, prog.State(ex.ID))

	// The verdict serves one Check: the next compares for itself, finds
	// the skeleton and leaves the exercise's failure unrecorded.
	outs, err = s.Check(context.Background(), todo)
	require.NoError(t, err)
	assert.True(t, outs[0].Untouched)
}

// A Check without a Select before it compares the files itself: an
// untouched skeleton that fails stays "not started".
func TestCheckOfSkeletonStaysNotStarted(t *testing.T) {
	s, ws, c := open(t)
	ex, ok := c.Exercise("bulkheadquiz")
	require.True(t, ok)
	outs, err := s.Check(context.Background(), []*course.Exercise{ex})
	require.NoError(t, err)
	require.Len(t, outs, 1)
	assert.True(t, outs[0].Untouched)
	assert.Equal(t, checker.Fail, outs[0].Result.Status)
	prog, err := ws.Progress()
	require.NoError(t, err)
	assert.Equal(t, workspace.NotStarted, prog.State(ex.ID))
}

// CheckSaved says when a check begins only if it checks: files checked
// already (a front end's own save that the watcher reports too) are no
// news, and the outcome is the last one.
func TestCheckSavedAnnouncesOnlyAChange(t *testing.T) {
	s, ws, c := open(t)
	ex, ok := c.Exercise("bulkheadquiz")
	require.True(t, ok)
	file := filepath.Join(ws.ExerciseDir(ex.ID), "bulkheadquiz.go")
	ctx := context.Background()
	saved := func() (session.Outcome, bool, []string) {
		var calls []string
		o, checked, err := s.CheckSaved(ctx, ex, func() { calls = append(calls, "started") }, func() { calls = append(calls, "checking") })
		require.NoError(t, err)
		return o, checked, calls
	}

	require.NoError(t, os.WriteFile(file, []byte(begun), 0o644))
	first, checked, calls := saved()
	assert.True(t, checked)
	assert.Equal(t, []string{"started", "checking"}, calls)

	again, checked, calls := saved()
	assert.False(t, checked, "the same files")
	assert.Equal(t, []string{"started"}, calls, "nothing to announce")
	assert.Equal(t, first.Seq, again.Seq)

	require.NoError(t, os.WriteFile(file, []byte(begun+"// changed\n"), 0o644))
	next, checked, calls := saved()
	assert.True(t, checked)
	assert.Equal(t, []string{"started", "checking"}, calls)
	assert.Equal(t, first.Seq+1, next.Seq)
}

package session_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/session"
	"github.com/kurs-course/kurs/internal/workspace"
)

// exercises returns the course's exercises by id.
func exercises(t *testing.T, c *course.Course, ids ...string) []*course.Exercise {
	t.Helper()
	var exs []*course.Exercise
	for _, id := range ids {
		ex, ok := c.Exercise(id)
		require.True(t, ok, id)
		exs = append(exs, ex)
	}
	return exs
}

// TestWhatComesNext holds the one rule for what comes next: the first
// exercise in the course's order not passed yet, other than the one the
// learner is on, among those the front end offers.
func TestWhatComesNext(t *testing.T) {
	s, ws, c := open(t)
	first := c.Exercises[0]
	st, err := s.Standing()
	require.NoError(t, err)
	assert.Equal(t, first, st.Next(nil, nil), "nothing passed: the course's first exercise")

	exs := exercises(t, c, "circuitbreaker", "tokenbucket", "bulkheadquiz")
	cb, tb, quiz := exs[0], exs[1], exs[2]
	for _, ex := range []*course.Exercise{cb, tb} {
		require.NoError(t, ws.Record(workspace.Outcome{Exercise: ex.ID, Status: workspace.StatusPass,
			Score: ex.Points, MaxScore: ex.Points, Files: ws.Digest(ex.ID)}))
	}
	st, err = s.Standing()
	require.NoError(t, err)
	assert.Equal(t, first, st.Next(nil, nil), "the overview and kurs lesson")
	assert.Equal(t, first, st.Next(nil, cb), "the page of an exercise just passed")
	assert.Equal(t, c.Exercises[1], st.Next(nil, first), "never the exercise the learner is on")
	assert.Equal(t, quiz, st.Next(exs, cb), "kurs watch, among the exercises it watches")

	assert.Equal(t, session.Totals{Passed: 2, Exercises: len(c.Exercises), Score: cb.Points + tb.Points, Max: maxPoints(c)},
		st.Totals())
	assert.True(t, st.SolutionOpen(cb))
	assert.False(t, st.SolutionOpen(first))
	assert.Equal(t, workspace.Passed, st.State(cb))

	// A failing check later: the pass, its points and the solution stay.
	require.NoError(t, ws.Record(workspace.Outcome{Exercise: cb.ID, Status: workspace.StatusFail,
		MaxScore: cb.Points, Files: ws.Digest(cb.ID)}))
	st, err = s.Standing()
	require.NoError(t, err)
	assert.Equal(t, workspace.PassedBefore, st.State(cb))
	assert.Equal(t, cb.Points, st.Points(cb))
	assert.True(t, st.SolutionOpen(cb))
	assert.Nil(t, st.Next(exs[:2], tb), "every other exercise watched has passed")
}

// TestHintsSeenAreTheSessions shows a hint through the session and finds
// it among the hints seen.
func TestHintsSeenAreTheSessions(t *testing.T) {
	s, _, c := open(t)
	ex := exercises(t, c, "circuitbreaker")[0]
	h, err := s.NextHint(ex, "de")
	require.NoError(t, err)
	st, err := s.Standing()
	require.NoError(t, err)
	seen, total := st.SeenHints(ex, "de")
	assert.Equal(t, []string{h.Text}, seen)
	assert.Equal(t, h.Total, total)
	assert.Positive(t, total)
}

// maxPoints is the points of the whole course.
func maxPoints(c *course.Course) int {
	n := 0
	for _, ex := range c.Exercises {
		n += ex.Points
	}
	return n
}

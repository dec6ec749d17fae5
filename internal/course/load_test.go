package course_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	kurs "github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/course"
)

// The named exercises of a course, loaded alone, are what the whole
// course holds of them, in its order and lessons; the others are not
// read.
func TestLoadExercisesIsLoadOfThoseExercises(t *testing.T) {
	all, err := course.Load(kurs.Content())
	require.NoError(t, err)
	require.Greater(t, len(all.Exercises), 2)
	ids := []string{all.Exercises[2].ID, all.Exercises[0].ID, "nosuchexercise"}
	some, err := course.LoadExercises(kurs.Content(), ids)
	require.NoError(t, err)
	require.Len(t, some.Exercises, 2, "the two that exist, no other")
	assert.Equal(t, all.Lessons, some.Lessons, "every lesson")
	for i, want := range []*course.Exercise{all.Exercises[0], all.Exercises[2]} {
		got := some.Exercises[i]
		assert.Equal(t, want.ID, got.ID, "in the course's order")
		assert.Equal(t, want.Lesson, got.Lesson)
		assert.Equal(t, want.Order, got.Order)
		assert.Equal(t, want.Points, got.Points)
		assert.Equal(t, want.Suite, got.Suite)
		assert.Equal(t, want.Summary, got.Summary)
		assert.Equal(t, want.Hints, got.Hints)
		assert.Equal(t, want.Kind(), got.Kind())
	}
	_, ok := some.Exercise(all.Exercises[1].ID)
	assert.False(t, ok, "an exercise not named is not loaded")
}

package checker_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
)

// A file of several megabytes is refused before anything reads it whole
// into the build: a learner's file is a few kilobytes.
func TestHugeFileIsRefused(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	huge := "package circuitbreaker\n\n// " + strings.Repeat("x", 3<<20) + "\n"
	res := check(t, &checker.Checker{Timeout: corpusTimeout}, ex, folder(t, map[string]string{
		"circuitbreaker.go": breaker,
		"padding.go":        huge,
	}))
	require.Equal(t, checker.Error, res.Status, describe(res))
	require.NotNil(t, res.Problem)
	assert.Equal(t, checker.ProblemTooLarge, res.Problem.Kind)
	assert.Equal(t, "circuitbreaker/padding.go", res.Problem.File)
}

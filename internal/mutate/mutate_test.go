package mutate_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/mutate"
)

const limiter = `package fixedwindow

// Limiter counts requests per window.
type Limiter struct {
	limit, window int
	start, count  int
}

func New(limit, window int) *Limiter { return &Limiter{limit: limit, window: window} }

func (l *Limiter) Allow(now int) bool {
	if now-l.start >= l.window {
		l.start = now - now%l.window
		l.count = 0
	}
	if l.count < l.limit {
		l.count++
		return true
	}
	return false
}

func (l *Limiter) State() string {
	switch {
	case l.count == 0:
		return "idle"
	case l.count < l.limit:
		return "open"
	default:
		return "full"
	}
}
`

func generate(t *testing.T) map[string]mutate.Mutant {
	t.Helper()
	ms, invalid, err := mutate.Generate([]course.File{{Name: "fixedwindow.go", Data: []byte(limiter)}})
	require.NoError(t, err)
	assert.Positive(t, invalid, "dropping the last return does not compile and must be filtered out")
	byID := map[string]mutate.Mutant{}
	for _, m := range ms {
		_, dup := byID[m.ID]
		require.False(t, dup, "ids must be unique: %s", m.ID)
		byID[m.ID] = m
	}
	return byID
}

// TestOperators checks that each operator of the package comment makes the
// mutant an instructor would expect, with a readable, stable id.
func TestOperators(t *testing.T) {
	byID := generate(t)
	for id, wantLine := range map[string]string{
		"Limiter.Allow: >= → < in `now-l.start >= l.window`":                                 "if now-l.start < l.window {",
		"Limiter.Allow: >= → > in `now-l.start >= l.window`":                                 "if now-l.start > l.window {",
		"Limiter.Allow: - → + in `now-l.start`":                                              "if now+l.start >= l.window {",
		"Limiter.Allow: 0 → 1":                                                               "l.count = 1",
		"Limiter.Allow: drop `l.count = 0`":                                                  "",
		"Limiter.Allow: `l.count++` → `l.count--`":                                           "l.count--",
		"Limiter.Allow: true → false":                                                        "return false",
		"Limiter.Allow: negate `if l.count < l.limit`":                                       "if !(l.count < l.limit) {",
		"Limiter.State: swap the bodies of `case l.count == 0` and `case l.count < l.limit`": `return "open"`,
	} {
		m, ok := byID[id]
		if !assert.True(t, ok, "missing mutant %q", id) {
			continue
		}
		assert.Equal(t, "fixedwindow.go", m.File)
		assert.True(t, strings.HasPrefix(m.Diff, "diff a/fixedwindow.go b/fixedwindow.go\n"), m.Diff)
		if wantLine != "" {
			assert.Contains(t, string(m.Files[0].Data), wantLine, id)
		}
		// Only the mistake changes: the diff has one hunk.
		assert.Equal(t, 1, strings.Count(m.Diff, "\n@@ "), "%s:\n%s", id, m.Diff)
	}
	_, ok := byID["Limiter.Allow: drop `return false`"]
	assert.False(t, ok, "a mutant that does not compile is dropped")
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := generate(t), generate(t)
	assert.Equal(t, len(a), len(b))
	for id := range a {
		assert.Contains(t, b, id)
	}
}

func TestGenerateRefusesBrokenPackage(t *testing.T) {
	_, _, err := mutate.Generate([]course.File{{Name: "x.go", Data: []byte("package x\n\nfunc F() int { return y }\n")}})
	assert.Error(t, err)
}

// A reference that imports the standard library gets mutants also from a
// kurs built with -trimpath, which knows no GOROOT of its own (make test
// builds so).
func TestGenerateWithStandardLibrary(t *testing.T) {
	src := `package clamp

import "math"

// Clamp returns x within lo and hi, and lo for NaN.
func Clamp(x, lo, hi float64) float64 {
	if math.IsNaN(x) || x < lo {
		return lo
	}
	return math.Min(x, hi)
}
`
	ms, _, err := mutate.Generate([]course.File{{Name: "clamp.go", Data: []byte(src)}})
	require.NoError(t, err)
	assert.NotEmpty(t, ms)
}

package explain

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWrapHangingKeepsPathsWhole checks that a file's path with its line,
// or a folder as a problem's place, is never broken, however narrow the
// room: an editor follows it only whole. A test's id may still go on
// after a hyphen.
func TestWrapHangingKeepsPathsWhole(t *testing.T) {
	for _, c := range []struct {
		name, s string
		width   int
		want    []string
	}{
		{"a folder as the place", "exercises/counter/misconceptions/add-sets-the-count-instead-of-adding: the hidden tests pass it", 40,
			[]string{"exercises/counter/misconceptions/add-sets-the-count-instead-of-adding:", "  the hidden tests pass it"}},
		{"a file and line in the words", "Data race: (*Pool).Release writes at exercises/bulkheadpool/bulkhead-pool.go:31, while", 30,
			[]string{"Data race: (*Pool).Release", "  writes at", "  exercises/bulkheadpool/bulkhead-pool.go:31,", "  while"}},
		{"a test's id", "the test edge/successful-probe-closes-and-resets-the-count fails", 30,
			[]string{"the test", "  edge/successful-probe-", "  closes-and-resets-the-count", "  fails"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, WrapHanging(c.s, "", "  ", c.width))
		})
	}
}

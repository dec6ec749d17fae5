package harness

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuizGivenAsWritten: the judge grades a quiz answer whatever its
// case, and reports a wrong one as the learner wrote it, without the
// space around it, so that a report shows the learner's own answer.
func TestQuizGivenAsWritten(t *testing.T) {
	claim := QuoteFields(" a ", "maybe d", "e", "C", "")
	l := NewLearner(io.Discard, strings.NewReader("m "+strconv.Quote(claim)+"\nd\n"))
	q := &QuizDriver{Answers: func() []string { return []string{"A", "D", "B", "c", "B"} }}
	for i, want := range []struct {
		pass  bool
		given string
	}{
		{true, "a"},
		{false, "maybe d"},
		{false, "e"},
		{true, "C"},
		{false, ""},
	} {
		f, err := q.Judge(Test{Case: i + 1}, 0, l)
		require.NoError(t, err)
		assert.Equal(t, want.pass, f.Pass, "case %d", i+1)
		assert.Equal(t, want.given, f.Given, "case %d", i+1)
		assert.Equal(t, Quiz, f.Kind)
	}
}

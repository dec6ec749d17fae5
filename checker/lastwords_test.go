package checker

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLastWordsFindsMessageAndLearnerFrame(t *testing.T) {
	out := "learner output\npanic: tokenbucket: bad\n\ngoroutine 1 [running]:\n" +
		module + "/internal/harness.(*Traces).guard(...)\n\t" + module + "/internal/harness/trace.go:12 +0x1\n" +
		module + "/tokenbucket.New(...)\n\t" + module + "/tokenbucket/tb.go:7 +0x2c\n"
	assert.Equal(t, "panic: tokenbucket: bad\ntokenbucket.New(...)\n\ttokenbucket/tb.go:7", lastWords(out))
	assert.Equal(t, "fatal error: stack overflow", lastWords("fatal error: stack overflow\n\nruntime stack:\n"))
	assert.Empty(t, lastWords("just some output\n"))
	long := lastWords("panic: " + strings.Repeat("x", 5000))
	assert.Less(t, len(long), 1100, "a huge panic value is cut")
}

func TestCappedKeepsHeadAndTail(t *testing.T) {
	c := &capped{limit: 10}
	c.Write([]byte("0123456"))
	assert.False(t, c.truncated, "7 of 10 bytes: nothing cut")
	c.Write([]byte("789"))
	assert.False(t, c.truncated, "exactly the cap: nothing cut")
	c.Write([]byte("abc"))
	assert.True(t, c.truncated)
	assert.Equal(t, "0123456789", c.String())
	assert.Equal(t, "0123456789abc", c.Tail())
	big := strings.Repeat("y", 3*tailSize) + "end"
	c.Write([]byte(big))
	assert.True(t, strings.HasSuffix(c.Tail(), "end"))
	assert.Len(t, c.Tail(), tailSize)
}

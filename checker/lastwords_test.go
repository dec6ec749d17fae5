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
	assert.Equal(t, "panic: tokenbucket: bad\ntokenbucket.New(…)\n\ttokenbucket/tb.go:7", lastWords(out))
	assert.Equal(t, "fatal error: stack overflow", lastWords("fatal error: stack overflow\n\nruntime stack:\n"))
	assert.Empty(t, lastWords("just some output\n"))
	long := lastWords("panic: " + strings.Repeat("x", 5000))
	assert.Less(t, len(long), 1100, "a huge panic value is cut")
}

// A runtime crash report as the Go 1.26 runtime writes it, with the parts
// that change from run to run marked: {A} addresses, {N} argument values.
const crashTemplate = `fatal error: out of memory allocating heap arena metadata

runtime stack:
runtime.throw({0x5231ff?, {N}?})
	runtime/panic.go:1229 +0x48 fp={A} sp={A} pc=0x47f288
runtime.(*mheap).sysAlloc(0x61a2e0, {N}?, 0x62a4e8, 0x62a510)
	runtime/malloc.go:884 +0x32d fp={A} sp={A} pc=0x41f3ed

goroutine 6 gp={A} m=0 mp=0x6122a0 [running]:
runtime.growslice({A}, 0xbbfc01?, 0xbbfc00?, 0x1?, 0x4f70c0?)
	runtime/slice.go:265 +0x573 fp={A} sp={A} pc=0x481553
github.com/kurs-course/kurs/circuitbreaker.(*CircuitBreaker).record(...)
	github.com/kurs-course/kurs/circuitbreaker/circuitbreaker.go:20
github.com/kurs-course/kurs/circuitbreaker.(*CircuitBreaker).Allow({A}, 0x8)
	github.com/kurs-course/kurs/circuitbreaker/circuitbreaker.go:25 +0x53 fp={A} sp={A} pc=0x4c4553
github.com/kurs-course/kurs/circuitbreaker.(*CircuitBreaker).Allow({A}, 0x8)
	github.com/kurs-course/kurs/circuitbreaker/circuitbreaker.go:25 +0x53 fp={A} sp={A} pc=0x4c4553
main.subject.Do({{0x5275c0?, {A}}}, {0x51a594, 0x5}, {{A}, 0x1, 0x1})
	github.com/kurs-course/kurs/internal/run/driver.go:40 +0x9e fp={A} sp={A} pc=0x4e95de
github.com/kurs-course/kurs/internal/harness.Traces.check.func1()
	github.com/kurs-course/kurs/internal/harness/trace.go:63 +0x3a fp={A} sp={A} pc=0x4e70ba
`

func crash(addr, n string) string {
	return strings.NewReplacer("{A}", addr, "{N}", n).Replace(crashTemplate)
}

func TestLastWordsAreSteady(t *testing.T) {
	a := lastWords("learner output\n" + crash("0x10a0c7e9f680", "0xc000000"))
	b := lastWords(crash("0x2fb073c7fd90", "0x10000000"))
	assert.Equal(t, a, b, "two runs of a memory bomb")
	assert.Equal(t, `fatal error: out of memory allocating heap arena metadata
circuitbreaker.(*CircuitBreaker).record(…)
	circuitbreaker/circuitbreaker.go:20
circuitbreaker.(*CircuitBreaker).Allow(…)
	circuitbreaker/circuitbreaker.go:25`, a, "the message and the learner's frames, once each; no runtime, harness or driver frames")
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

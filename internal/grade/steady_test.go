package grade

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/checker"
)

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

func TestCrashReportIsSteady(t *testing.T) {
	a := crashReport(crash("0x10a0c7e9f680", "0xc000000"))
	b := crashReport(crash("0x2fb073c7fd90", "0x10000000"))
	assert.Equal(t, a, b, "two runs of a memory bomb")
	assert.Equal(t, `fatal error: out of memory allocating heap arena metadata

circuitbreaker.(*CircuitBreaker).record(…)
	circuitbreaker/circuitbreaker.go:20
circuitbreaker.(*CircuitBreaker).Allow(…)
	circuitbreaker/circuitbreaker.go:25`, a, "the message and the learner's frames, once each; no runtime, harness or driver frames")
}

func TestSteady(t *testing.T) {
	res := &checker.Result{
		Status: checker.Fail,
		Output: "learner says hi\n" + crash("0x4d8e98ee1e0", "0x43b7ba"),
		Crash:  crash("0x4d8e98ee1e0", "0x43b7ba"),
		Tests: []checker.Test{
			{Name: "a", Status: checker.Fail, Missing: true},
		},
	}
	steady(res)
	assert.Equal(t, "learner says hi\n", res.Output, "the runtime's report is cut from the output; it is in Crash")
	assert.True(t, strings.HasPrefix(res.Crash, "fatal error: out of memory"))
	assert.NotContains(t, res.Crash, "0x4d8e98ee1e0")

	prob := &checker.Result{Status: checker.Error, Output: "panic: boom\n\ngoroutine 1 [running]:\n",
		Problem: &checker.Problem{Kind: checker.ProblemCrash, Detail: "panic: boom at 0x4d8e98ee1e0\n\ngoroutine 1 [running]:\nmain.main()\n\truntime/proc.go:1"}}
	steady(prob)
	assert.Equal(t, "panic: boom at 0x…", prob.Problem.Detail)
	assert.Empty(t, prob.Output)

	// Output of a program that did not crash is the learner's, all of it.
	ok := &checker.Result{Status: checker.Fail, Output: "runtime: 3 ms\npanic: not really\n", Tests: []checker.Test{{Name: "a", Status: checker.Fail}}}
	steady(ok)
	assert.Equal(t, "runtime: 3 ms\npanic: not really\n", ok.Output)
}

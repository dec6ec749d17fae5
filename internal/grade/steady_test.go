package grade

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/harness"
)

func TestSteady(t *testing.T) {
	const report = "panic: boom [recovered]\n\ngoroutine 1 gp=0x4d8e98ee1e0 m=0 [running]:\nmain.main()\n\truntime/proc.go:1 +0x1f\n"
	res := &checker.Result{
		Status: checker.Fail,
		Output: "learner says hi\n" + report,
		Crash:  "panic: boom [recovered]",
		Tests: []checker.Test{
			{Name: "a", Status: checker.Fail, Missing: true},
			{Name: "b", Status: checker.Fail, Failure: &harness.Failure{Kind: harness.Panicked, Panic: "bad pointer 0xc000012345"}},
		},
	}
	steady(res)
	assert.Equal(t, "learner says hi\n", res.Output, "the runtime's report is cut from the output; it is in Crash")
	assert.Equal(t, "panic: boom [recovered]", res.Crash)
	assert.Equal(t, "bad pointer 0x…", res.Tests[1].Failure.Panic)

	prob := &checker.Result{Status: checker.Error, Output: report,
		Problem: &checker.Problem{Kind: checker.ProblemCrash, Detail: "panic: boom [recovered]"}}
	steady(prob)
	assert.Empty(t, prob.Output)

	// Output of a program that did not crash is the learner's, all of it.
	ok := &checker.Result{Status: checker.Fail, Output: "runtime: 3 ms\npanic: not really\n", Tests: []checker.Test{{Name: "a", Status: checker.Fail}}}
	steady(ok)
	assert.Equal(t, "runtime: 3 ms\npanic: not really\n", ok.Output)
}

package grade

import (
	"strings"

	"github.com/kurs-course/kurs/checker"
)

// steady makes a result the same on every run of the same code: the
// checker's report of a crash is steady already (see checker's lastWords),
// panic values lose their addresses, and where the program crashed, its
// output ends before the runtime's report, which differs from run to run.
//
// Output that the learner's code printed while the process was killed at
// the time limit may still end at a different byte from run to run; that
// is the code's doing, and nothing kurs can fix.
func steady(res *checker.Result) {
	// A test that sent no result means the program died (or was killed)
	// before it: the output may end in the runtime's report.
	crashed := res.Crash != "" || (res.Problem != nil && res.Problem.Kind == checker.ProblemCrash)
	for i := range res.Tests {
		t := &res.Tests[i]
		crashed = crashed || t.Missing
		if t.Failure != nil {
			t.Failure.Panic = checker.HideAddresses(t.Failure.Panic)
		}
	}
	if crashed {
		res.Output = beforeRuntime(res.Output)
	}
}

// beforeRuntime returns the output up to where the runtime's report of a
// crash begins; the report itself is in the result's Crash.
func beforeRuntime(out string) string {
	for i := 0; i < len(out); {
		line := out[i:]
		for _, p := range []string{"panic: ", "fatal error: ", "runtime: ", "[signal ", "goroutine "} {
			if strings.HasPrefix(line, p) {
				return out[:i]
			}
		}
		j := strings.IndexByte(line, '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return out
}

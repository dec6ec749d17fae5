package grade

import (
	"regexp"
	"strings"

	"github.com/kurs-course/kurs/checker"
)

// modulePrefix is the module path under which the learner's package is
// built; kurs's own packages (harness, internal/…) live there too.
const modulePrefix = "github.com/kurs-course/kurs/"

// maxFrames bounds the learner's frames kept from a crash report; a stack
// overflow has thousands, all alike.
const maxFrames = 10

// steady rewrites what the Go runtime wrote about a crash so that it is the
// same on every run: a crash report is full of addresses that differ from
// run to run (Go 1.26 randomizes the heap's base, the kernel the stack's),
// of argument values, and of runtime frames that depend on the moment a
// memory bomb hit its limit. What stays is what the learner can act on:
// the message and the learner's own frames, file and line.
//
// Output that the learner's code printed while the process was killed at
// the time limit may still end at a different byte from run to run; that
// is the code's doing, and nothing kurs can fix.
func steady(res *checker.Result) {
	// A test that sent no result means the program died (or was killed)
	// before it: the output may end in the runtime's report.
	crashed := res.Crash != ""
	res.Crash = crashReport(res.Crash)
	if pr := res.Problem; pr != nil && pr.Kind == checker.ProblemCrash {
		pr.Detail = crashReport(pr.Detail)
		crashed = true
	}
	for i := range res.Tests {
		t := &res.Tests[i]
		crashed = crashed || t.Missing
		if t.Failure != nil {
			t.Failure.Panic = addresses.ReplaceAllString(t.Failure.Panic, "0x…")
		}
	}
	if crashed {
		res.Output = beforeRuntime(res.Output)
	}
}

// addresses matches values long enough to be addresses rather than
// offsets or small numbers.
var addresses = regexp.MustCompile(`0x[0-9a-f]{9,}`)

// crashReport keeps of a runtime crash report its message (up to the first
// blank line) and the learner's frames without arguments or offsets.
func crashReport(s string) string {
	if s == "" {
		return s
	}
	lines := strings.Split(s, "\n")
	var out []string
	i := 0
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		out = append(out, addresses.ReplaceAllString(lines[i], "0x…"))
	}
	var frames []string
	for ; i+1 < len(lines) && len(frames) < 2*maxFrames; i++ {
		fn, loc := lines[i], lines[i+1]
		if !strings.HasPrefix(loc, "\t") || !learnerFile(strings.TrimSpace(loc)) {
			continue
		}
		if j := strings.LastIndex(fn, "("); j > 0 {
			fn = fn[:j] + "(…)"
		}
		loc, _, _ = strings.Cut(strings.TrimSpace(loc), " ") // drop +0x… and fp=…
		i++                                                  // the location line is done with, too
		frame := []string{strings.TrimPrefix(fn, modulePrefix), "\t" + strings.TrimPrefix(loc, modulePrefix)}
		if n := len(frames); n >= 2 && frames[n-2] == frame[0] && frames[n-1] == frame[1] {
			continue // recursion: the same frame again
		}
		frames = append(frames, frame...)
	}
	if len(frames) > 0 {
		out = append(append(out, ""), frames...)
	}
	return strings.Join(out, "\n")
}

// learnerFile reports whether a frame's location lies in the learner's
// package rather than in the runtime, the harness or the test program.
func learnerFile(loc string) bool {
	rest, ok := strings.CutPrefix(loc, modulePrefix)
	return ok && !strings.HasPrefix(rest, "harness/") && !strings.HasPrefix(rest, "internal/")
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

package checker

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
)

// How a concurrent exercise's stress tests ran, as Result.Concurrency
// says.
const (
	// ConcurrencyStress: the stress tests ran in the learner's program as
	// built for every check.
	ConcurrencyStress = "stress"
	// ConcurrencyRace: they ran once more in a build with the race
	// detector, which also fails a data race the stress did not catch.
	ConcurrencyRace = "race+stress"
)

// Why the race detector did not run on a concurrent exercise whose stress
// tests ran, as Result.RaceSkipped says; each calls for something else
// (fix the other tests, install a C compiler, nothing).
const (
	// RaceSkippedFailing: another test failed; the race run waits until
	// every other test passes.
	RaceSkippedFailing = "failing"
	// RaceSkippedNoCC: no C compiler (gcc, or the one CC names) was found.
	RaceSkippedNoCC = "no_cc"
	// RaceSkippedPlatform: kurs builds race-enabled programs only on
	// Linux, amd64 or arm64.
	RaceSkippedPlatform = "platform"
	// RaceSkippedBuild: the race build, or its program, failed for a
	// reason that is not the learner's: the stress alone decides.
	RaceSkippedBuild = "build"
)

// raceSupported reports whether this system can build a race-enabled
// static program at all: the race detector exists for the platform and a
// C compiler is on PATH. Whether the C library links statically shows
// only in the build; a failed race build falls back to the stress alone.
func raceSupported() bool { return raceUnsupported() == "" }

// raceUnsupported returns why this system cannot build a race-enabled
// program (RaceSkippedPlatform or RaceSkippedNoCC), or "" if it can.
func raceUnsupported() string {
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		return RaceSkippedPlatform
	}
	cc := "gcc"
	if v := strings.Fields(os.Getenv("CC")); len(v) > 0 {
		cc = v[0]
	}
	if _, err := exec.LookPath(cc); err != nil {
		return RaceSkippedNoCC
	}
	return ""
}

// Stage is a stage of a check that Checker.Progress is told of.
type Stage string

// Stages.
const (
	// StageRace: the learner's program is built with the race detector
	// (the first such build compiles the standard library for it, about
	// half a minute) and its stress tests run once more.
	StageRace Stage = "race"
)

// race runs the stress tests of a concurrent exercise once more, in the
// learner's program built with the race detector, and merges what they
// find into res: a stress test that passed but found a data race now
// fails, with the detector's report in the output. It says in
// res.Concurrency what was used, and in res.RaceSkipped why the detector
// did not run. It runs only when every other test passed, since a
// learner with a failing trace has something else to fix first; without
// a C compiler, or when the race build fails for a reason that is not the
// learner's (the learner's code built already), the stress alone stands.
//
// dir is the module the learner's program was built in, build builds it
// with the race detector, and args follow the program's name on its
// command line.
func (c *Checker) race(ctx context.Context, dir string, build func() (string, error), args []string, judge string, ex *course.Exercise, res *Result) error {
	var stress []harness.Test
	for _, t := range ex.Suite.Tests {
		if strings.HasPrefix(t.Name, harness.StressPrefix) {
			stress = append(stress, t)
		}
	}
	// Without a stress test that ran there is nothing to say about how
	// they ran: a program that crashed before its first test ran none.
	if len(stress) == 0 || res.Status == Error {
		return nil
	}
	res.Concurrency = ConcurrencyStress
	// A missing C compiler is named first: passing the other tests would
	// not help.
	if why := raceUnsupported(); why != "" {
		res.RaceSkipped = why
		return nil
	}
	for _, t := range res.Tests {
		if t.Status != Pass && !strings.HasPrefix(t.Name, harness.StressPrefix) {
			res.RaceSkipped = RaceSkippedFailing
			return nil
		}
	}
	if c.Progress != nil {
		c.Progress(ex.ID, StageRace)
	}
	prog, err := build()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		res.RaceSkipped = RaceSkippedBuild
		return nil
	}
	rex := *ex
	rex.Suite.Tests = stress
	rres := &Result{Exercise: ex.ID, MaxScore: ex.Points, Seed: res.Seed}
	// The race detector slows code down several times: its run gets
	// three times the time limit.
	rc := *c
	rc.Timeout = 3 * c.timeout()
	if err := rc.run(ctx, dir, append([]string{prog}, args...), judge, &rex, rres); err != nil {
		return err
	}
	if rres.Status == Error {
		// The race-enabled program did not start its tests: no verdict
		// of the race detector.
		res.RaceSkipped = RaceSkippedBuild
		return nil
	}
	res.Concurrency = ConcurrencyRace
	// The detector's report is the best explanation of a race there is:
	// it is kept whatever the stress tests did without it.
	report := raceReport(rres.Output)
	res.Races = parseRaces(rres.Output, ex.ID)
	if report != "" {
		if res.Output != "" && !strings.HasSuffix(res.Output, "\n") {
			res.Output += "\n"
		}
		res.Output += report
		res.Truncated = res.Truncated || rres.Truncated
	}
	points, perTest := ex.TestPoints()
	raced := false
	for _, rt := range rres.Tests {
		// Only what the race run found counts against the learner: a
		// race, or a broken invariant. Running out of time under the
		// detector's slowdown says nothing about the code.
		if rt.Status == Pass || rt.Failure == nil || rt.Failure.Kind == harness.Timeout {
			continue
		}
		for i := range res.Tests {
			t := &res.Tests[i]
			if t.Name != rt.Name || t.Status != Pass {
				continue
			}
			*t = rt
			raced = true
			if perTest {
				res.Score -= points[t.Name]
			}
		}
	}
	if !raced {
		return nil
	}
	res.Status = Fail
	if !perTest {
		res.Score = 0
	}
	return nil
}

// maxRaces bounds the races kept in a Result: a racy pool makes the
// detector report the same few pairs of accesses, and more say nothing
// new.
const maxRaces = 10

// parseRaces returns the data races in a race-enabled program's output,
// with the frames of the learner's package of exercise id. A race whose
// accesses are the same as an earlier one's is left out.
func parseRaces(out, id string) []Race {
	pkg := module + "/" + id + "."
	var races []Race
	seen := map[string]bool{}
	for _, block := range strings.Split(out, "WARNING: DATA RACE\n")[1:] {
		var r Race
		var access *RaceAccess
		lines := strings.Split(block, "\n")
	scan:
		for k := 0; k < len(lines); k++ {
			l := lines[k]
			switch {
			case strings.HasPrefix(l, "=="), strings.HasPrefix(l, "Goroutine "):
				break scan
			case strings.Contains(l, " at 0x") && !strings.HasPrefix(l, " "):
				// "Read at 0x… by goroutine 7:", "Previous write at …".
				r.Accesses = append(r.Accesses, RaceAccess{Write: strings.Contains(strings.ToLower(l), "write at")})
				access = &r.Accesses[len(r.Accesses)-1]
			case access != nil && strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") && k+1 < len(lines):
				fn, ok := strings.CutPrefix(strings.TrimSpace(l), pkg)
				k++
				if !ok {
					continue
				}
				if i := strings.LastIndex(fn, "("); i > 0 && strings.HasSuffix(fn, ")") {
					fn = fn[:i]
				}
				loc, _, _ := strings.Cut(strings.TrimSpace(lines[k]), " ")
				file, line, _ := strings.Cut(strings.TrimPrefix(loc, module+"/"), ":")
				n, _ := strconv.Atoi(line)
				access.Frames = append(access.Frames, RaceFrame{Function: fn, File: file, Line: n})
			}
		}
		if len(r.Accesses) == 0 {
			continue
		}
		if sig := fmt.Sprint(r.Accesses); !seen[sig] {
			seen[sig] = true
			races = append(races, r)
		}
		if len(races) == maxRaces {
			break
		}
	}
	return races
}

// raceReport returns the race detector's reports from a program's
// output, cut to what the learner needs: the two accesses, with the frames
// in the learner's and the test program's code, and the learner's files
// named as in the workspace. Frames of the harness, where the stress
// goroutines start, and the detector's note that it could not read the
// program's own file (the confined program may open no file; Go names its
// frames itself) are left out.
func raceReport(out string) string {
	i := strings.Index(out, "==================\nWARNING: DATA RACE")
	if i < 0 {
		return ""
	}
	lines := strings.Split(strings.ReplaceAll(out[i:], module+"/", ""), "\n")
	var b strings.Builder
	skipBlock := false
	for k := 0; k < len(lines); k++ {
		l := lines[k]
		switch {
		case strings.Contains(l, "WARNING: reading executable name failed"):
			continue
		case strings.HasPrefix(l, "Goroutine ") && strings.HasSuffix(l, "created at:"):
			skipBlock = true // where the harness started the goroutine
			continue
		case l == "" || strings.HasPrefix(l, "=="):
			skipBlock = false
		case skipBlock:
			continue
		case strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "      ") && k+1 < len(lines):
			// A frame: the function, then its file on the next line.
			file := strings.TrimSpace(lines[k+1])
			k++
			if strings.HasPrefix(file, "internal/harness/") || strings.HasPrefix(file, "<autogenerated>") {
				continue
			}
			b.WriteString(l + "\n" + lines[k] + "\n")
			continue
		}
		b.WriteString(l + "\n")
	}
	text := b.String()
	for strings.Contains(text, "\n\n\n") {
		text = strings.ReplaceAll(text, "\n\n\n", "\n\n")
	}
	return strings.TrimRight(text, "\n") + "\n"
}

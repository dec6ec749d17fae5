package checker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/build"
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
	// RaceSkippedLimit: the race build ran out of the time or memory a
	// build of the learner's code may take.
	RaceSkippedLimit = "limit"
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
	// for the first time with this toolchain, which compiles the standard
	// library for it (about half a minute), and its stress tests run in
	// it. A build that finds the standard library compiled says nothing.
	StageRace Stage = "race"
)

// concurrent runs the tests of a concurrent exercise, each in one program
// once: the others in the learner's program (prog and its arguments);
// then, when they all pass, the stress tests in the learner's program
// built with the race detector, which also fails a data race, with the
// detector's report in the output. A learner with a failing trace has
// something else to fix first; without a C compiler, or when the race
// build or its program fails for a reason that is not the learner's (the
// learner's code built already), the stress tests run in prog, and the
// stress alone decides, as it does for a stress test that ran out of time
// under the detector's slowdown. res.Concurrency says which ran, and
// res.RaceSkipped why the detector did not.
//
// race builds the learner's program with the race detector; cold reports
// whether that build compiles the standard library first.
func (c *Checker) concurrent(ctx context.Context, dir string, prog []string, race func() (string, error), cold func() bool, judge string, ex *course.Exercise, res *Result) error {
	var stress, others []harness.Test
	for _, t := range ex.Suite.Tests {
		if strings.HasPrefix(t.Name, harness.StressPrefix) {
			stress = append(stress, t)
		} else {
			others = append(others, t)
		}
	}
	why := raceUnsupported()
	if len(stress) == 0 || why != "" {
		if err := c.run(ctx, dir, prog, judge, ex, res); err != nil {
			return err
		}
		// Without a stress test that ran there is nothing to say about
		// how they ran: a program that crashed before its first test
		// ran none.
		if len(stress) > 0 && res.Status != Error {
			res.Concurrency, res.RaceSkipped = ConcurrencyStress, why
		}
		return nil
	}
	// part runs the tests of ex among tests in prog, with the time limit
	// of c times scale.
	part := func(prog []string, tests []harness.Test, scale int) (*Result, error) {
		sub := *ex
		sub.Suite.Tests = tests
		r := &Result{Exercise: ex.ID, MaxScore: ex.Points, Seed: res.Seed}
		rc := *c
		rc.Timeout = time.Duration(scale) * c.timeout()
		return r, rc.run(ctx, dir, prog, judge, &sub, r)
	}
	first := &Result{}
	if len(others) > 0 {
		var err error
		if first, err = part(prog, others, 1); err != nil {
			return err
		}
		if first.Status == Error {
			merge(ex, res, first)
			return nil
		}
	}
	// plain runs the stress tests in the learner's program.
	plain := func(why string) error {
		r, err := part(prog, stress, 1)
		if err != nil {
			return err
		}
		merge(ex, res, first, r)
		if res.Status != Error {
			res.Concurrency, res.RaceSkipped = ConcurrencyStress, why
		}
		return nil
	}
	if first.Status == Fail {
		return plain(RaceSkippedFailing)
	}
	if c.Progress != nil && cold() {
		c.Progress(ex.ID, StageRace)
	}
	raceProg, err := race()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, build.ErrLimit) {
		return plain(RaceSkippedLimit)
	}
	if err != nil {
		return plain(RaceSkippedBuild)
	}
	// The race detector slows code down several times: its run gets
	// three times the time limit.
	// The race detector's program is built from the exercise's own
	// module, whose main runs the exercise named first (a batch's names
	// its member).
	raced, err := part(append([]string{raceProg, ex.ID}, prog[2:]...), stress, 3)
	if err != nil {
		return err
	}
	if raced.Status == Error {
		// The race-enabled program did not start its tests: no verdict
		// of the race detector.
		return plain(RaceSkippedBuild)
	}
	// Running out of time under the detector's slowdown says nothing
	// about the code: such a test runs again without it, which decides.
	var slow []harness.Test
	for i, t := range raced.Tests {
		if t.Status != Pass && t.Failure != nil && t.Failure.Kind == harness.Timeout {
			slow = append(slow, stress[i])
		}
	}
	parts := []*Result{first, raced}
	if len(slow) > 0 {
		again, err := part(prog, slow, 1)
		if err != nil {
			return err
		}
		if again.Status != Error {
			parts = append(parts, again)
		}
	}
	merge(ex, res, parts...)
	res.Concurrency = ConcurrencyRace
	// The detector's report is the best explanation of a race there is:
	// it is kept whatever the stress tests did.
	res.Races = parseRaces(raced.Output, ex.ID)
	if report := raceReport(raced.Output); report != "" {
		if res.Output != "" && !strings.HasSuffix(res.Output, "\n") {
			res.Output += "\n"
		}
		res.Output += report
		res.Truncated = res.Truncated || raced.Truncated
	}
	return nil
}

// merge sets res to the outcome of the runs parts, each of some of ex's
// tests: a test's outcome is that of the last part that ran it, and a
// test that no part ran failed without a result. The output is the first
// part's that ran a test (the race detector's report is added apart); the
// program was killed if it was in any part.
func merge(ex *course.Exercise, res *Result, parts ...*Result) {
	byName := map[string]Test{}
	for _, p := range parts {
		for _, t := range p.Tests {
			byName[t.Name] = t
		}
		res.Killed = res.Killed || p.Killed
		if res.Crash == "" {
			res.Crash = p.Crash
		}
	}
	first := parts[0]
	if len(first.Tests) == 0 && len(parts) > 1 {
		first = parts[1] // no test but stress tests: the stress run's
	}
	res.Output, res.Truncated = first.Output, first.Truncated
	if first.Status == Error {
		res.Status, res.Score, res.Problem = Error, 0, first.Problem
	}
	points, perTest := ex.TestPoints()
	passed := 0
	res.Tests, res.Score = nil, 0
	for _, st := range ex.Suite.Tests {
		t, ok := byName[st.Name]
		if !ok {
			t = Test{Name: st.Name, Status: Fail, Missing: true}
		}
		if t.Status == Pass {
			passed++
			res.Score += points[st.Name]
		}
		res.Tests = append(res.Tests, t)
	}
	switch {
	case res.Status == Error:
		res.Score = 0
	case passed == len(ex.Suite.Tests):
		res.Status, res.Score = Pass, res.MaxScore
	default:
		res.Status = Fail
		if !perTest {
			res.Score = 0
		}
	}
}

// maxRaces bounds the races kept in a Result: a racy pool makes the
// detector report the same few pairs of accesses, and more say nothing
// new.
const maxRaces = 10

// parseRaces returns the data races in a race-enabled program's output,
// with the frames of the learner's package of exercise id. A race whose
// accesses are the same as an earlier one's, in either order, is left out.
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
		if sig := raceSig(r); !seen[sig] {
			seen[sig] = true
			races = append(races, r)
		}
		if len(races) == maxRaces {
			break
		}
	}
	return races
}

// raceSig names the accesses of r in an order that makes a race of f
// with g the same as one of g with f: the detector reports both, as it
// happens to catch them, and the pair would otherwise take two of
// maxRaces.
func raceSig(r Race) string {
	sigs := make([]string, len(r.Accesses))
	for i, a := range r.Accesses {
		sigs[i] = fmt.Sprint(a)
	}
	slices.Sort(sigs)
	return strings.Join(sigs, "\n")
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

// Command check measures kurs check against a bare `go test -count=1`
// of the same code after the same save (`go test` with its result cache
// when nothing changed, `go test -race -count=1` for bulkheadpool), kurs
// and go test interleaved round by round (which of the two goes first
// alternates), so that the machine's load weighs on both alike. Both run
// one command at a time, each free to use every core, with warm caches:
// kurs's after one check of each exercise, go's after one go test. It
// prints each baseline, and reports wall and processor time (with their
// children) and their ratios.
//
// Run it from the repository's root:
//
//	go run ./bench/check          # 15 rounds
//	go run ./bench/check -n 30
//	go run ./bench/check -against /tmp/kurs-old
//
// With -against, another kurs (say, one built from an earlier commit) is
// checked after the same saves as well, with a cache of its own, in the
// same rounds (the order of the three rotating), so that two versions of
// kurs are compared under the same load.
//
// Each round, in a workspace and in the baseline module alike, it saves
// the circuit breaker with a new comment at the end (a save that changes
// no code), checks it and runs go test; runs both again unchanged; saves
// a new body of Success (its code differs each round, its verdict not)
// and checks and tests that; saves that body one line longer (which
// moves every declaration after it) and checks and tests that; saves
// bulkheadpool (a passing reference, checked with the race detector) with
// a new comment, and with a new body, and checks it after each against
// `go test -race -count=1` of equal work (checker/testdata/baseline: its
// three stress tests, 16 goroutines each until 250 ms of processor time
// or a second, and one trace); then, with the body saved before, checks
// the unchanged bulkheadpool beside the unchanged circuit breaker.
// Every save is new to earlier runs too (each run numbers its rounds
// from the clock), so that Go's build cache, which runs share, holds no
// package of it: kurs, the -against kurs and go test all compile it.
// Everything it creates is removed at the end.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
)

func main() {
	n := flag.Int("n", 15, "number of rounds")
	against := flag.String("against", "", "another kurs binary, checked after the same saves and compared")
	flag.Parse()
	if err := run(*n, *against); err != nil {
		fmt.Fprintln(os.Stderr, "bench/check:", err)
		os.Exit(1)
	}
}

// sample is one timed command: its wall time and the processor time of
// it and its children.
type sample struct{ wall, cpu time.Duration }

func timed(cmd *exec.Cmd, pass bool) (sample, error) {
	start := time.Now()
	out, err := cmd.CombinedOutput()
	s := sample{wall: time.Since(start)}
	if cmd.ProcessState != nil {
		s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if pass && err != nil {
		return s, fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return s, nil
}

func run(n int, against string) error {
	s, err := benchutil.NewSetup("check")
	if err != nil {
		return err
	}
	defer s.Close()
	pool, err := os.ReadFile(filepath.Join("exercises", "bulkheadpool", "solution", "bulkheadpool.go"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.Workspace, "bulkheadpool", "bulkheadpool.go"), pool, 0o644); err != nil {
		return err
	}
	// The cache of this run, warmed by one check of each: what a learner's
	// cache holds after the first check.
	env := append(os.Environ(), "KURS_CACHE="+filepath.Join(s.Dir, "cache"))
	if shared, err := os.UserCacheDir(); err == nil && os.Getenv("KURS_CACHE") == "" {
		// The go build cache is the user's kurs one: the standard
		// library is not compiled again for the run.
		if err := os.MkdirAll(filepath.Join(s.Dir, "cache"), 0o700); err != nil {
			return err
		}
		_ = os.Symlink(filepath.Join(shared, "kurs", "go-build"), filepath.Join(s.Dir, "cache", "go-build"))
	}
	kurs := func(ex string) *exec.Cmd {
		cmd := exec.Command(s.Kurs, "check", ex, "--workspace", s.Workspace)
		cmd.Env = env
		return cmd
	}
	var other func(ex string) *exec.Cmd // the kurs of -against, if any
	if against != "" {
		if against, err = filepath.Abs(against); err != nil {
			return err
		}
		cache := filepath.Join(s.Dir, "cache-against")
		if err := os.MkdirAll(cache, 0o700); err != nil {
			return err
		}
		if shared, err := os.UserCacheDir(); err == nil && os.Getenv("KURS_CACHE") == "" {
			_ = os.Symlink(filepath.Join(shared, "kurs", "go-build"), filepath.Join(cache, "go-build"))
		}
		otherEnv := append(os.Environ(), "KURS_CACHE="+cache)
		other = func(ex string) *exec.Cmd {
			cmd := exec.Command(against, "check", ex, "--workspace", s.Workspace)
			cmd.Env = otherEnv
			return cmd
		}
	}
	goTest := func() *exec.Cmd {
		cmd := exec.Command("go", "test", "-count=1", ".")
		cmd.Dir = filepath.Join(s.Dir, "baseline")
		cmd.Env = benchutil.BaselineEnv()
		return cmd
	}
	// Unchanged, go test may give its cached result, as kurs gives its
	// own.
	goTestCached := func() *exec.Cmd {
		cmd := goTest()
		cmd.Args = []string{"go", "test", "."}
		return cmd
	}
	// The pool's baseline: the same pool, with go test's own stress tests,
	// under the race detector (which needs cgo).
	poolBase := filepath.Join(s.Dir, "pool-baseline")
	poolTest, err := os.ReadFile(filepath.Join("checker", "testdata", "baseline", "bulkheadpool_test.go"))
	if err != nil {
		return err
	}
	if err := os.Mkdir(poolBase, 0o755); err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		"go.mod":               []byte("module example.com/baseline\n\ngo 1.22\n"),
		"bulkheadpool_test.go": poolTest,
		"bulkheadpool.go":      pool,
	} {
		if err := os.WriteFile(filepath.Join(poolBase, name), data, 0o644); err != nil {
			return err
		}
	}
	goTestRace := func() *exec.Cmd {
		cmd := exec.Command("go", "test", "-race", "-count=1", ".")
		cmd.Dir = poolBase
		cmd.Env = append(benchutil.BaselineEnv(), "CGO_ENABLED=1")
		return cmd
	}
	if _, err := timed(goTestRace(), true); err != nil {
		return err
	}
	savePool := func(src []byte) error {
		if err := os.WriteFile(filepath.Join(s.Workspace, "bulkheadpool", "bulkheadpool.go"), src, 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(poolBase, "bulkheadpool.go"), src, 0o644)
	}
	if err := os.WriteFile(s.Learner, s.Solution, 0o644); err != nil {
		return err
	}
	for _, ex := range []string{"circuitbreaker", "bulkheadpool"} {
		if _, err := timed(kurs(ex), true); err != nil {
			return err
		}
		if other != nil {
			if _, err := timed(other(ex), true); err != nil {
				return err
			}
		}
	}
	if _, err := timed(goTest(), true); err != nil {
		return err
	}

	const (
		kComment     = iota // kurs check after a comment-only save
		gComment            // go test after the same save
		kUnchanged          // kurs check unchanged
		gUnchanged          // go test unchanged
		kBody               // kurs check after a save of a new body
		gBody               // go test after the same save
		kPool               // kurs check bulkheadpool unchanged
		kBreaker            // kurs check circuitbreaker unchanged, beside it
		kLines              // kurs check after a save of a body one line longer
		gLines              // go test after the same save
		kPoolComment        // kurs check bulkheadpool after a comment-only save
		gPoolComment        // go test -race after the same save
		kPoolBody           // kurs check bulkheadpool after a save of a new body
		gPoolBody           // go test -race after the same save
	)
	labels := []string{
		"kurs check after a comment save",
		"go test after the same save",
		"kurs check unchanged",
		"go test unchanged (cached result allowed)",
		"kurs check after a body save",
		"go test after the same save",
		"kurs check bulkheadpool unchanged",
		"kurs check circuitbreaker unchanged",
		"kurs check after a body save of a new line",
		"go test after the same save",
		"kurs check bulkheadpool after a comment save",
		"go test -race after the same save",
		"kurs check bulkheadpool after a body save",
		"go test -race after the same save",
	}
	got := make([][]sample, len(labels))
	others := make([][]sample, len(labels)) // the -against kurs's, by the label of kurs's
	measure := func(k int, cmd *exec.Cmd) error {
		sm, err := timed(cmd, true)
		got[k] = append(got[k], sm)
		return err
	}
	// pair runs kurs and go test, in the order of the round; with
	// -against, the other kurs too, the three in turn.
	pair := func(i, kk, gk int, ex string) error {
		goTest := goTest
		switch {
		case ex == "bulkheadpool":
			goTest = goTestRace
		case gk == gUnchanged:
			goTest = goTestCached
		}
		if other == nil {
			if i%2 == 0 {
				if err := measure(kk, kurs(ex)); err != nil {
					return err
				}
				return measure(gk, goTest())
			}
			if err := measure(gk, goTest()); err != nil {
				return err
			}
			return measure(kk, kurs(ex))
		}
		steps := []func() error{
			func() error { return measure(kk, kurs(ex)) },
			func() error { return measure(gk, goTest()) },
			func() error {
				sm, err := timed(other(ex), true)
				others[kk] = append(others[kk], sm)
				return err
			},
		}
		for j := range steps {
			if err := steps[(i+j)%len(steps)](); err != nil {
				return err
			}
		}
		return nil
	}
	saveBoth := func(src []byte) error {
		if err := os.WriteFile(s.Learner, src, 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(s.Dir, "baseline", "circuitbreaker.go"), src, 0o644)
	}
	code := s.Solution
	// Every save of this run is new to every cache, Go's build cache
	// too, which other runs share: a save of the same bytes by an earlier
	// run would be compiled by neither go test nor the go command.
	first := int(time.Now().UnixNano() % 1e12)
	for r := range n {
		i := first + r
		if err := saveBoth(benchutil.Edit(code, i)); err != nil {
			return err
		}
		if err := pair(r, kComment, gComment, "circuitbreaker"); err != nil {
			return err
		}
		// go test keeps no result of a -count=1 run: one run keeps it.
		if _, err := timed(goTestCached(), true); err != nil {
			return err
		}
		if err := pair(r, kUnchanged, gUnchanged, "circuitbreaker"); err != nil {
			return err
		}
		if code, err = newBody(s.Solution, i); err != nil {
			return err
		}
		if err := saveBoth(code); err != nil {
			return err
		}
		if err := pair(r, kBody, gBody, "circuitbreaker"); err != nil {
			return err
		}
		// A new line in a body moves every declaration after it: the
		// save a learner makes most.
		lines, err := newLine(code, i)
		if err != nil {
			return err
		}
		if err := saveBoth(lines); err != nil {
			return err
		}
		if err := pair(r, kLines, gLines, "circuitbreaker"); err != nil {
			return err
		}
		if err := saveBoth(code); err != nil {
			return err
		}
		if err := savePool(benchutil.Edit(pool, i)); err != nil {
			return err
		}
		if err := pair(r, kPoolComment, gPoolComment, "bulkheadpool"); err != nil {
			return err
		}
		poolBody, err := newPoolBody(pool, i)
		if err != nil {
			return err
		}
		if err := savePool(poolBody); err != nil {
			return err
		}
		if err := pair(r, kPoolBody, gPoolBody, "bulkheadpool"); err != nil {
			return err
		}
		one, two := kPool, kBreaker
		if r%2 == 1 {
			one, two = two, one
		}
		for _, k := range []int{one, two} {
			ex := map[int]string{kPool: "bulkheadpool", kBreaker: "circuitbreaker"}[k]
			if err := measure(k, kurs(ex)); err != nil {
				return err
			}
		}
	}
	fmt.Printf("%d rounds, kurs and its baseline interleaved (the order alternating), one command at a time, warm caches\n", n)
	fmt.Println("baseline: go test -count=1 . in a module of the same circuitbreaker.go and one test of the seed's trace " +
		"(checker/testdata/baseline), offline (GOFLAGS= GOPROXY=off GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0), after the same save")
	fmt.Println("baseline unchanged: go test . in the same module, Go's result cache allowed (kurs reuses its own)")
	fmt.Println("baseline for bulkheadpool: go test -race -count=1 . in a module of the same bulkheadpool.go and its stress tests " +
		"and one trace (checker/testdata/baseline), offline as above but CGO_ENABLED=1, after the same save")
	wall := func(k int) []time.Duration {
		var ds []time.Duration
		for _, sm := range got[k] {
			ds = append(ds, sm.wall)
		}
		return ds
	}
	cpu := func(k int) []time.Duration {
		var ds []time.Duration
		for _, sm := range got[k] {
			ds = append(ds, sm.cpu)
		}
		return ds
	}
	for k, l := range labels {
		benchutil.Report(l+" (wall)", wall(k))
		benchutil.Report(l+" (cpu)", cpu(k))
	}
	ratio := func(label, aim string, a, b int) {
		w := benchutil.Median(ratios(wall(a), wall(b))).Seconds()
		c := benchutil.Median(ratios(cpu(a), cpu(b))).Seconds()
		benchutil.Summary("check: %s: wall %.2f×, CPU %.2f× (median of %d rounds' ratios; aim: %s)", label, w, c, n, aim)
	}
	ratio("after a comment-only save / go test -count=1 after the same save", "at most 0.6×", kComment, gComment)
	ratio("after a save of a new body / go test -count=1 after the same save", "at most 0.6×", kBody, gBody)
	ratio("after a save of a body one line longer / go test -count=1 after the same save", "at most 0.6×", kLines, gLines)
	ratio("unchanged / go test unchanged, its result cache allowed", "at most 0.3×", kUnchanged, gUnchanged)
	ratio("bulkheadpool unchanged / circuitbreaker unchanged", "at most 2×", kPool, kBreaker)
	ratio("bulkheadpool after a comment-only save / go test -race -count=1 after the same save", "at most 0.5×", kPoolComment, gPoolComment)
	ratio("bulkheadpool after a save of a new body / go test -race -count=1 after the same save", "at most 1.0×", kPoolBody, gPoolBody)
	if other != nil {
		fmt.Printf("against: %s, with a cache of its own, after the same saves in the same rounds\n", against)
		of := func(k int, f func(sample) time.Duration) []time.Duration {
			var ds []time.Duration
			for _, sm := range others[k] {
				ds = append(ds, f(sm))
			}
			return ds
		}
		wallOf := func(sm sample) time.Duration { return sm.wall }
		cpuOf := func(sm sample) time.Duration { return sm.cpu }
		for _, r := range []struct {
			label string
			k, g  int
		}{
			{"after a comment-only save", kComment, gComment},
			{"after a save of a new body", kBody, gBody},
			{"after a save of a body one line longer", kLines, gLines},
			{"unchanged", kUnchanged, gUnchanged},
			{"bulkheadpool after a comment-only save", kPoolComment, gPoolComment},
			{"bulkheadpool after a save of a new body", kPoolBody, gPoolBody},
		} {
			benchutil.Report("against: "+r.label+" (wall)", of(r.k, wallOf))
			benchutil.Report("against: "+r.label+" (cpu)", of(r.k, cpuOf))
			benchutil.Summary("check: against: %s / its baseline: wall %.2f×, CPU %.2f×; this kurs / against: wall %.2f×, CPU %.2f× (medians of %d rounds' ratios)",
				r.label,
				benchutil.Median(ratios(of(r.k, wallOf), wall(r.g))).Seconds(), benchutil.Median(ratios(of(r.k, cpuOf), cpu(r.g))).Seconds(),
				benchutil.Median(ratios(wall(r.k), of(r.k, wallOf))).Seconds(), benchutil.Median(ratios(cpu(r.k), of(r.k, cpuOf))).Seconds(), n)
		}
	}
	return nil
}

// newBody returns the reference with a body of Success whose code differs
// in every round i but does the same: failures is set to a variable's
// value less the round, which is 0.
func newBody(src []byte, i int) ([]byte, error) {
	old := []byte("func (b *CircuitBreaker) Success() {\n\tb.failures = 0\n")
	if !bytes.Contains(src, old) {
		return nil, errors.New("the reference's Success changed; cannot make a new body")
	}
	body := fmt.Appendf(nil, "func (b *CircuitBreaker) Success() {\n\tb.failures = edits - %d\n", i)
	out := bytes.Replace(src, old, body, 1)
	return fmt.Appendf(out, "\nvar edits = %d\n", i), nil
}

// newPoolBody returns the pool's reference with a body of InUse whose
// code differs in every round i but does the same.
func newPoolBody(src []byte, i int) ([]byte, error) {
	old := []byte("\tdefer p.mu.Unlock()\n\treturn p.inUse\n}")
	if !bytes.Contains(src, old) {
		return nil, errors.New("the pool's InUse changed; cannot make a new body")
	}
	body := fmt.Appendf(nil, "\tdefer p.mu.Unlock()\n\treturn p.inUse + edits - %d\n}", i)
	out := bytes.Replace(src, old, body, 1)
	return fmt.Appendf(out, "\nvar edits = %d\n", i), nil
}

// newLine returns src with one more line in the body of Success, every
// round another, that changes nothing the tests see: the declarations
// after it move down by a line.
func newLine(src []byte, i int) ([]byte, error) {
	old := []byte("func (b *CircuitBreaker) Success() {\n")
	if !bytes.Contains(src, old) {
		return nil, errors.New("the reference's Success changed; cannot add a line")
	}
	return bytes.Replace(src, old, fmt.Appendf(nil, "%s\tb.failures += edits - %d\n", old, i), 1), nil
}

// ratios returns a[i]/b[i], as durations of a second per unit, so that
// Median applies.
func ratios(a, b []time.Duration) []time.Duration {
	var rs []time.Duration
	for i := range a {
		if b[i] > 0 {
			rs = append(rs, time.Duration(float64(time.Second)*float64(a[i])/float64(b[i])))
		}
	}
	return rs
}

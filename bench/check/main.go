// Command check measures kurs check after a save and an unchanged
// re-check against a bare `go test -count=1` of the same code after the
// same save, in the same run, round by round, so that the machine's load
// weighs on all of them alike. It reports wall and processor time (kurs's
// and go's, with their children) and their ratios.
//
// Run it from the repository's root:
//
//	go run ./bench/check          # 15 rounds
//	go run ./bench/check -n 30
//
// Each round saves an edited circuit breaker into a workspace and runs
// `kurs check circuitbreaker` (after a save), then the same again
// (unchanged), then `kurs check bulkheadpool` on its unchanged reference
// (its race build included), then `go test -count=1` of a module with
// the same file after the same edit, then that `go test` again unchanged.
// Everything it creates is removed at the end.
package main

import (
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
	flag.Parse()
	if err := run(*n); err != nil {
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

func run(n int) error {
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
	goTest := func() *exec.Cmd {
		cmd := exec.Command("go", "test", "-count=1", ".")
		cmd.Dir = filepath.Join(s.Dir, "baseline")
		cmd.Env = benchutil.BaselineEnv()
		return cmd
	}
	if err := os.WriteFile(s.Learner, s.Solution, 0o644); err != nil {
		return err
	}
	for _, ex := range []string{"circuitbreaker", "bulkheadpool"} {
		if _, err := timed(kurs(ex), true); err != nil {
			return err
		}
	}
	if _, err := timed(goTest(), true); err != nil {
		return err
	}

	labels := []string{
		"kurs check after a save",
		"kurs check unchanged",
		"kurs check bulkheadpool unchanged",
		"go test -count=1 after a save",
		"go test -count=1 unchanged",
	}
	got := make([][]sample, len(labels))
	for i := range n {
		edited := benchutil.Edit(s.Solution, i)
		if err := os.WriteFile(s.Learner, edited, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(s.Dir, "baseline", "circuitbreaker.go"), edited, 0o644); err != nil {
			return err
		}
		for k, cmd := range []*exec.Cmd{kurs("circuitbreaker"), kurs("circuitbreaker"), kurs("bulkheadpool"), goTest(), goTest()} {
			sm, err := timed(cmd, true)
			if err != nil {
				return err
			}
			got[k] = append(got[k], sm)
		}
	}
	fmt.Printf("%d rounds, interleaved\n", n)
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
	ratio := func(label string, a, b int) {
		fmt.Printf("%-52s wall %.2f  cpu %.2f\n", label,
			benchutil.Median(ratios(wall(a), wall(b))).Seconds(), benchutil.Median(ratios(cpu(a), cpu(b))).Seconds())
	}
	fmt.Println("ratios (median of the rounds' ratios):")
	ratio("after a save / go test after a save", 0, 3)
	ratio("unchanged / go test after a save", 1, 3)
	ratio("unchanged / go test unchanged", 1, 4)
	ratio("bulkheadpool unchanged / circuitbreaker unchanged", 2, 1)
	return nil
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

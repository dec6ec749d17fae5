// Command watch measures how long kurs watch takes from a save to the
// result on screen, next to a bare `go test -count=1` of the same files
// after the same edit, both in the same run, alternating, so that the
// machine's load weighs on both alike (the goal: a save's result within 1 s).
//
// Run it from the repository's root:
//
//	go run ./bench/watch            # 20 saves
//	go run ./bench/watch -n 50
//
// It builds kurs into a temporary folder, creates a workspace there with
// the reference solution of the circuit breaker, starts kurs watch on it
// and edits the file n times; the baseline is a module with the same file
// and a small test of the seed's trace, edited the same way. Everything it
// creates is removed at the end.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
	"github.com/kurs-course/kurs/internal/watch"
)

func main() {
	n := flag.Int("n", 20, "number of saves to time")
	flag.Parse()
	if err := run(*n); err != nil {
		fmt.Fprintln(os.Stderr, "bench/watch:", err)
		os.Exit(1)
	}
}

func run(n int) error {
	s, err := benchutil.NewSetup("watch")
	if err != nil {
		return err
	}
	defer s.Close()
	if err := os.WriteFile(s.Learner, s.Solution, 0o644); err != nil {
		return err
	}
	goTest := func(i int) (time.Duration, error) {
		d, passed, err := s.GoTest(benchutil.Edit(s.Solution, i))
		if err == nil && !passed {
			err = errors.New("go test: the reference solution fails")
		}
		return d, err
	}

	// kurs watch, its keys on a pipe that stays open, its screen read line
	// by line: a result line is the moment the learner sees the result.
	w, err := s.Start("watch", "circuitbreaker", "--workspace", s.Workspace)
	if err != nil {
		return err
	}
	defer w.End(0)
	results := make(chan time.Time, 1)
	go func() {
		sc := bufio.NewScanner(w.Stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "✓ circuitbreaker — ") || strings.HasPrefix(sc.Text(), "✗ circuitbreaker — ") {
				results <- time.Now()
			}
		}
		close(results)
	}()
	await := func() (time.Time, error) {
		select {
		case t, ok := <-results:
			if !ok {
				return time.Time{}, fmt.Errorf("kurs watch ended: %s", w.Stderr())
			}
			return t, nil
		case <-time.After(benchutil.Patience):
			return time.Time{}, fmt.Errorf("no result within %v", benchutil.Patience)
		}
	}

	// Warm up: the first check at the start, and one go test.
	if _, err := await(); err != nil {
		return err
	}
	if _, err := goTest(-1); err != nil {
		return err
	}

	var watchTimes, testTimes []time.Duration
	for i := range n {
		start := time.Now()
		if err := os.WriteFile(s.Learner, benchutil.Edit(s.Solution, i), 0o644); err != nil {
			return err
		}
		seen, err := await()
		if err != nil {
			return err
		}
		watchTimes = append(watchTimes, seen.Sub(start))
		d, err := goTest(i)
		if err != nil {
			return err
		}
		testTimes = append(testTimes, d)
	}

	fmt.Fprintln(w.Stdin, "q")
	w.Stdin.Close()
	if err := w.End(benchutil.Patience); err != nil {
		return fmt.Errorf("kurs watch did not quit on q: %w", err)
	}

	fmt.Printf("saves timed: %d (alternating with the baseline)\n", n)
	benchutil.Report("kurs watch, save to result:", watchTimes)
	benchutil.Report("go test -count=1 after the same edit:", testTimes)
	fmt.Printf("(kurs watch's times include the %v debounce)\n", watch.DefaultDebounce)
	fmt.Printf("ratio of medians, watch / go test: %.2fx\n", benchutil.Median(watchTimes).Seconds()/benchutil.Median(testTimes).Seconds())
	benchutil.Summary("watch: kurs watch, save to result / go test -count=1 after the same edit: %.2f× (medians of %d saves, interleaved)", benchutil.Median(watchTimes).Seconds()/benchutil.Median(testTimes).Seconds(), n)
	benchutil.ReportWithin(watchTimes)
	return nil
}

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
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/watch"
)

// baselineTest is the tiny test of the baseline module: the seed's trace,
// as in the checker's benchmark.
const baselineTest = `package circuitbreaker

import "testing"

func TestSeedTrace(t *testing.T) {
	b := New(3, 5)
	b.Failure(0)
	b.Failure(1)
	b.Success()
	b.Failure(2)
	b.Failure(3)
	b.Failure(4)
	if b.Allow(8) || !b.Allow(9) || b.Allow(9) {
		t.Fatal("wrong")
	}
	b.Failure(9)
	if b.Allow(13) || !b.Allow(14) {
		t.Fatal("wrong")
	}
	b.Success()
	if b.State() != "closed" {
		t.Fatal(b.State())
	}
}
`

// patience bounds the wait for one result; a save's result that takes
// longer is a failure of kurs watch, not a slow sample.
const patience = 60 * time.Second

func main() {
	n := flag.Int("n", 20, "number of saves to time")
	flag.Parse()
	if err := run(*n); err != nil {
		fmt.Fprintln(os.Stderr, "bench/watch:", err)
		os.Exit(1)
	}
}

func run(n int) error {
	solution, err := os.ReadFile(filepath.Join("exercises", "circuitbreaker", "solution", "circuitbreaker.go"))
	if err != nil {
		return fmt.Errorf("run me from the repository's root: %w", err)
	}
	tmp, err := os.MkdirTemp("", "kurs-bench-watch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	kurs := filepath.Join(tmp, "kurs")
	if out, err := exec.Command("go", "build", "-o", kurs, "./cmd/kurs").CombinedOutput(); err != nil {
		return fmt.Errorf("build kurs: %v\n%s", err, out)
	}
	ws := filepath.Join(tmp, "ws")
	if out, err := exec.Command(kurs, "init", ws, "--lang", "en", "--no-warm").CombinedOutput(); err != nil {
		return fmt.Errorf("kurs init: %v\n%s", err, out)
	}
	learner := filepath.Join(ws, "circuitbreaker", "circuitbreaker.go")
	if err := os.WriteFile(learner, solution, 0o644); err != nil {
		return err
	}

	base := filepath.Join(tmp, "baseline")
	if err := os.Mkdir(base, 0o755); err != nil {
		return err
	}
	for name, data := range map[string]string{
		"go.mod":                 "module example.com/baseline\n\ngo 1.22\n",
		"circuitbreaker_test.go": baselineTest,
		"circuitbreaker.go":      string(solution),
	} {
		if err := os.WriteFile(filepath.Join(base, name), []byte(data), 0o644); err != nil {
			return err
		}
	}
	goTest := func(i int) (time.Duration, error) {
		if err := os.WriteFile(filepath.Join(base, "circuitbreaker.go"), edit(solution, i), 0o644); err != nil {
			return 0, err
		}
		cmd := exec.Command("go", "test", "-count=1", ".")
		cmd.Dir = base
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off", "CGO_ENABLED=0")
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("go test: %v\n%s", err, out)
		}
		return time.Since(start), nil
	}

	// kurs watch, its keys on a pipe that stays open, its screen read line
	// by line: a result line is the moment the learner sees the result.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := exec.CommandContext(ctx, kurs, "watch", "circuitbreaker", "--workspace", ws)
	keys, err := w.StdinPipe()
	if err != nil {
		return err
	}
	screen, err := w.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	w.Stderr = &stderr
	if err := w.Start(); err != nil {
		return err
	}
	results := make(chan time.Time, 1)
	go func() {
		sc := bufio.NewScanner(screen)
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
				return time.Time{}, fmt.Errorf("kurs watch ended: %s", stderr.String())
			}
			return t, nil
		case <-time.After(patience):
			return time.Time{}, fmt.Errorf("no result within %v", patience)
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
		if err := os.WriteFile(learner, edit(solution, i), 0o644); err != nil {
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

	io.WriteString(keys, "q\n")
	keys.Close()
	done := make(chan error, 1)
	go func() { done <- w.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			return err
		}
	case <-time.After(patience):
		cancel()
		<-done
		return errors.New("kurs watch did not quit on q")
	}

	wm, tm := median(watchTimes), median(testTimes)
	fmt.Printf("saves timed: %d (alternating with the baseline)\n", n)
	fmt.Printf("kurs watch, save to result:   median %6.3fs  min %6.3fs  max %6.3fs  (includes the %v debounce)\n",
		wm.Seconds(), slices.Min(watchTimes).Seconds(), slices.Max(watchTimes).Seconds(), watch.DefaultDebounce)
	fmt.Printf("go test -count=1 after edit:  median %6.3fs  min %6.3fs  max %6.3fs\n",
		tm.Seconds(), slices.Min(testTimes).Seconds(), slices.Max(testTimes).Seconds())
	fmt.Printf("ratio of medians, watch / go test: %.2fx\n", wm.Seconds()/tm.Seconds())
	within := "yes"
	if slices.Max(watchTimes) > time.Second {
		within = "no"
	}
	fmt.Printf("every result within 1s: %s\n", within)
	return nil
}

// edit returns the file with a comment that makes each save different, as
// a learner's edit is.
func edit(src []byte, i int) []byte {
	return fmt.Appendf(bytes.Clone(src), "\n// edit %d\n", i)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

package harness

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/kurs-course/kurs/internal/harness/guard"
)

// Driver runs one hidden test against the learner's code and returns nil
// when it passes.
type Driver interface {
	Run(t Test, seed uint64, p *Progress) *Failure
}

// Progress remembers which step of which test is running, so that a timeout
// can say where the learner's code was stuck.
type Progress struct {
	mu   sync.Mutex
	test string
	f    Failure
}

func (p *Progress) begin(test string) {
	p.mu.Lock()
	p.test, p.f = test, Failure{}
	p.mu.Unlock()
}

// Trace records what a timeout report should say about the running trace:
// what is observed after each call and, for a random trace, its seed and
// index.
func (p *Progress) Trace(observe string, seed uint64, index int) {
	p.mu.Lock()
	p.f.Observe, p.f.Seed, p.f.Index = observe, seed, index
	p.mu.Unlock()
}

// At records that step (1-based) with the given call is about to run, after
// the steps in done, on a value made by New(args...).
func (p *Progress) At(args []float64, done []Done, step int, call string) {
	p.mu.Lock()
	p.f.New, p.f.Done, p.f.Step, p.f.Call = args, done, step, call
	p.mu.Unlock()
}

func (p *Progress) timeout() (string, *Failure) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.f
	f.Kind = Timeout
	f.Done = append([]Done(nil), f.Done...)
	return p.test, &f
}

// Main runs the suite named by the first argument with d and reports every
// result to the checker. The environment carries the run's settings:
// KURS_SEED (random traces) and KURS_DEADLINE (a duration after which the
// running test is reported as timed out).
func Main(d Driver) {
	out, nonce := guard.Results()
	if err := run(d, out, nonce, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "kurs harness:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

func run(d Driver, out io.Writer, nonce string, args []string) error {
	if out == nil {
		return fmt.Errorf("no result channel")
	}
	if len(args) != 1 {
		return fmt.Errorf("usage: harness SUITE.json")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	var suite Suite
	if err := json.Unmarshal(data, &suite); err != nil {
		return fmt.Errorf("read suite: %w", err)
	}
	seed, _ := strconv.ParseUint(os.Getenv("KURS_SEED"), 10, 64)
	deadline, err := time.ParseDuration(os.Getenv("KURS_DEADLINE"))
	if err != nil || deadline <= 0 {
		deadline = 10 * time.Second
	}
	debug.SetTraceback("single")

	var mu sync.Mutex
	enc := json.NewEncoder(out)
	send := func(r Record) {
		r.Nonce = nonce
		mu.Lock()
		defer mu.Unlock()
		_ = enc.Encode(r)
	}

	p := &Progress{}
	finished := make(chan struct{})
	go func() {
		for _, t := range suite.Tests {
			p.begin(t.Name)
			// Announce the test, so that a crash the harness cannot report
			// (out of memory, stack overflow) is blamed on it.
			send(Record{Kind: "start", Test: t.Name})
			f := d.Run(t, seed, p)
			r := Record{Kind: "result", Test: t.Name, Status: "pass"}
			switch {
			case f != nil && f.Pass:
				r.Failure = f
			case f != nil:
				r.Status, r.Failure = "fail", f
			}
			send(r)
		}
		close(finished)
	}()
	select {
	case <-finished:
		send(Record{Kind: "done"})
	case <-time.After(deadline):
		name, f := p.timeout()
		send(Record{Kind: "result", Test: name, Status: "fail", Failure: f})
	}
	return nil
}

package sim

import "errors"

// This file holds the second kind of circuit breaker the lesson compares
// with the exercise's: one that opens on the share of failed or slow calls
// among the latest calls, the way production libraries count by default
// (resilience4j's count-based sliding window, Polly's advanced circuit
// breaker, Envoy's outlier detection by failure percentage). The exercise's
// breaker counts failures in a row, the simplest variant; the lesson's
// table sets both side by side on the same downstreams.

// RateConfig sets up a RateBreaker. Percentages are whole numbers, so that
// every figure the lesson prints is exact.
type RateConfig struct {
	// Window is how many of the latest calls count.
	Window int
	// MinCalls is how many calls the window must hold before the breaker
	// may open: below it, two failures out of two are no evidence.
	MinCalls int
	// FailurePct opens the breaker when at least this percentage of the
	// calls in the window failed.
	FailurePct int
	// SlowMs makes a call that takes at least this many milliseconds a
	// slow one, whether it failed or not; 0 ignores slowness.
	SlowMs int
	// SlowPct opens the breaker when at least this percentage of the
	// calls in the window were slow.
	SlowPct int
	// Wait is how long the breaker stays open before one probe may go
	// through, as with the exercise's breaker.
	Wait int
}

// RateBreaker is a circuit breaker that opens on the failure rate (and,
// if set, the slow-call rate) over a sliding window of the latest calls.
// Its probe works as the exercise's: one call after Wait, which closes it
// with an empty window or opens it again. It is not safe for concurrent
// use; the simulation makes one call at a time.
type RateBreaker struct {
	cfg      RateConfig
	now      func() int
	state    string
	window   []call // the latest calls, oldest first, at most cfg.Window
	openedAt int
}

type call struct{ failed, slow bool }

// NewRateBreaker returns a closed RateBreaker; now tells the time.
func NewRateBreaker(cfg RateConfig, now func() int) *RateBreaker {
	return &RateBreaker{cfg: cfg, now: now, state: "closed"}
}

// State returns "closed", "open" or, while its probe runs, "half_open".
func (b *RateBreaker) State() string { return b.state }

// Call calls fn unless the breaker is open, and returns fn's error; while
// open it returns ErrRateOpen without calling fn.
func (b *RateBreaker) Call(fn func() error) error {
	switch b.state {
	case "half_open":
		return ErrRateOpen
	case "open":
		if b.now()-b.openedAt < b.cfg.Wait {
			return ErrRateOpen
		}
		b.state = "half_open"
	}
	start := b.now()
	err := fn()
	// Like the exercise's breaker, the time is read after fn returned: a
	// call fails, and is slow, at its end.
	c := call{failed: err != nil, slow: b.cfg.SlowMs > 0 && b.now()-start >= b.cfg.SlowMs}
	if b.state == "half_open" {
		if c.failed || c.slow {
			b.state, b.openedAt = "open", b.now()
		} else {
			b.state, b.window = "closed", nil
		}
		return err
	}
	b.window = append(b.window, c)
	if len(b.window) > b.cfg.Window {
		b.window = b.window[1:]
	}
	if b.trips() {
		b.state, b.openedAt, b.window = "open", b.now(), nil
	}
	return err
}

// trips reports whether the window holds enough calls and too many of them
// failed or were slow.
func (b *RateBreaker) trips() bool {
	n := len(b.window)
	if n < max(b.cfg.MinCalls, 1) {
		return false
	}
	failed, slow := 0, 0
	for _, c := range b.window {
		if c.failed {
			failed++
		}
		if c.slow {
			slow++
		}
	}
	return 100*failed >= b.cfg.FailurePct*n || b.cfg.SlowMs > 0 && 100*slow >= b.cfg.SlowPct*n
}

// ErrRateOpen is what a RateBreaker's Call returns while it is open.
var ErrRateOpen = errors.New("sim: circuit open")

// OpensAt sends reqs through call on clock c one at a time and returns the
// number, counted from 1, of the call after which state first reads
// "open"; 0 if it never does.
func OpensAt(c *Clock, call Call, state func() string, reqs []Request) int {
	for i, r := range reqs {
		Run(c, call, []Request{r})
		if state() == "open" {
			return i + 1
		}
	}
	return 0
}

// Alternating returns n requests, one every gap milliseconds, of which
// every second one, starting with the first, fails after timeout
// milliseconds and the others succeed after cost: F, S, F, S, … as from
// two replicas behind round robin, one of them broken.
func Alternating(n, gap, cost, timeout int) []Request {
	reqs := Blip(n, gap, cost, 0, timeout)
	for i := 0; i < n; i += 2 {
		reqs[i].Cost, reqs[i].Fail = timeout, true
	}
	return reqs
}

// FailFirst returns n requests, one every gap milliseconds, of which the
// first k fail after timeout milliseconds and the rest succeed after cost:
// a dependency that stumbles while it starts up, then is healthy.
func FailFirst(n, gap, cost, k, timeout int) []Request {
	reqs := Blip(n, gap, cost, 0, timeout)
	for i := 0; i < min(k, n); i++ {
		reqs[i].Cost, reqs[i].Fail = timeout, true
	}
	return reqs
}

// Slow returns n requests, one every gap milliseconds, to a downstream
// that answers every one correctly, but only after cost milliseconds.
func Slow(n, gap, cost int) []Request { return Blip(n, gap, cost, 0, 0) }

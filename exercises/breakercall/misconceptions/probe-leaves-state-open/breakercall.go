// Package breakercall holds the misconception "probe-leaves-state-open" of the exercise
// "breakercall": the reference solution with one mistake.
package breakercall

import (
	"errors"
	"sync"
)

// ErrOpen is what Call returns, without calling fn, while the breaker
// refuses calls.
var ErrOpen = errors.New("breakercall: circuit open")

// Breaker wraps calls to one dependency. After threshold consecutive
// failures it opens and fails fast; wait time units after it opened it lets
// one probe call through, which closes it again or reopens it.
//
// A Breaker is safe for concurrent use.
type Breaker struct {
	threshold, wait int
	now             func() int

	mu       sync.Mutex
	state    string // "closed", "open" or "half_open"
	failures int    // consecutive failures while closed
	openedAt int    // when it last opened, read from now
}

// New returns a closed breaker that opens after threshold consecutive
// failures and probes again wait time units later; now tells the time.
func New(threshold, wait int, now func() int) *Breaker {
	return &Breaker{threshold: threshold, wait: wait, now: now, state: "closed"}
}

// State returns "closed", "open" or, while a probe runs, "half_open".
func (b *Breaker) State() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

// Call calls fn unless the breaker is open, and returns fn's error. While
// the breaker is open, and while its probe runs, Call returns ErrOpen at
// once without calling fn.
func (b *Breaker) Call(fn func() error) error {
	if !b.allow() {
		return ErrOpen
	}
	// The lock is not held while fn runs: a slow dependency would otherwise
	// queue every other caller behind it, the very cascade a breaker is for.
	err := fn()
	b.record(err)
	return err
}

// allow reports whether a call may go through and starts the probe when the
// wait is over.
func (b *Breaker) allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case "closed":
		return true
	case "open":
		// The mistake: after the wait every call goes through, and the
		// state stays open until a call ends.
		if b.now()-b.openedAt >= b.wait {
			return true
		}
	}
	return false
}

// record counts the outcome of a call that went through. The time of
// opening is read after fn returned: the failure happened when the call
// gave up, not when it started.
func (b *Breaker) record(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err == nil {
		b.failures = 0
		if b.state == "half_open" || b.state == "open" {
			b.state = "closed"
		}
		return
	}
	switch b.state {
	case "half_open", "open":
		b.state, b.openedAt = "open", b.now()
	case "closed":
		b.failures++
		if b.failures >= b.threshold {
			b.state, b.openedAt = "open", b.now()
		}
	}
}

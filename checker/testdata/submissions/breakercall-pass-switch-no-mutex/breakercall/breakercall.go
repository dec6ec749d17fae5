// A breaker with its own state type and no lock: fine for one goroutine,
// and the checker's overlapping calls happen on the same goroutine.
package breakercall

import "errors"

var ErrOpen = errors.New("breakercall: the circuit is open")

type state int

const (
	closed state = iota
	open
	halfOpen
)

func (s state) String() string {
	switch s {
	case open:
		return "open"
	case halfOpen:
		return "half_open"
	}
	return "closed"
}

type Breaker struct {
	Threshold, Wait int
	clock           func() int
	st              state
	failures        int
	since           int
}

func New(threshold, wait int, now func() int) *Breaker {
	return &Breaker{Threshold: threshold, Wait: wait, clock: now}
}

func (b *Breaker) State() string { return b.st.String() }

func (b *Breaker) Call(fn func() error) error {
	switch b.st {
	case halfOpen:
		return ErrOpen
	case open:
		if b.clock()-b.since < b.Wait {
			return ErrOpen
		}
		b.st = halfOpen
	}
	err := fn()
	switch {
	case err == nil:
		b.failures = 0
		if b.st == halfOpen {
			b.st = closed
		}
	case b.st == halfOpen:
		b.trip()
	case b.st == closed:
		if b.failures++; b.failures >= b.Threshold {
			b.trip()
		}
	}
	return err
}

func (b *Breaker) trip() {
	b.st, b.since = open, b.clock()
}

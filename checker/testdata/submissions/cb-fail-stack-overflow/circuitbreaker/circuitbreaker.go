package circuitbreaker

import "fmt"

type state int

const (
	closed state = iota + 1
	open
	halfOpen
)

// String names the state; an unknown state shows its number.
func (s state) String() string {
	switch s {
	case closed:
		return "closed"
	case open:
		return "open"
	case halfOpen:
		return "half_open"
	}
	return fmt.Sprintf("state(%v)", s) // %v calls String again: endless recursion
}

type CircuitBreaker struct {
	threshold, wait int
	state           state
	failures        int
	openedAt        int
}

// New forgets to set the state, so it starts as the zero state, which is
// none of the three.
func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait}
}

func (b *CircuitBreaker) State() string { return b.state.String() }

func (b *CircuitBreaker) Allow(now int) bool {
	switch b.state {
	case open:
		if now-b.openedAt >= b.wait {
			b.state = halfOpen
			return true
		}
		return false
	case halfOpen:
		return false
	}
	return true
}

func (b *CircuitBreaker) Success() {
	b.failures = 0
	if b.state == halfOpen {
		b.state = closed
	}
}

func (b *CircuitBreaker) Failure(now int) {
	switch b.state {
	case halfOpen:
		b.state, b.openedAt = open, now
	case open:
	default:
		b.failures++
		if b.failures >= b.threshold {
			b.state, b.openedAt = open, now
		}
	}
}

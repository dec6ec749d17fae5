// A line-by-line port of the chapter's Python CircuitBreaker.call.
package breakercall

import "errors"

var ErrOpen = errors.New("circuit open - failing fast")

type Breaker struct {
	failureThreshold int
	resetTimeout     int
	now              func() int
	state            string
	failureCount     int
	openedAt         int
}

func New(threshold, wait int, now func() int) *Breaker {
	return &Breaker{failureThreshold: threshold, resetTimeout: wait, now: now, state: "closed"}
}

func (b *Breaker) State() string { return b.state }

func (b *Breaker) Call(fn func() error) error {
	if b.state == "open" {
		if b.now()-b.openedAt >= b.resetTimeout {
			b.state = "half_open"
		} else {
			return ErrOpen
		}
	}
	if err := fn(); err != nil {
		b.failureCount++
		if b.failureCount >= b.failureThreshold {
			b.state = "open"
			b.openedAt = b.now()
		}
		return err
	}
	if b.state == "half_open" {
		b.state = "closed"
		b.failureCount = 0
	}
	return nil
}

package breakercall

import "errors"

var ErrOpen = errors.New("breakercall: circuit open")

type Breaker struct {
	threshold, wait int
	now             func() int
	open            bool
	failures        int
	openedAt        int
}

func New(threshold, wait int, now func() int) *Breaker {
	return &Breaker{threshold: threshold, wait: wait, now: now}
}

func (b *Breaker) State() string {
	if b.open {
		return "open"
	}
	return "closed"
}

// Call lets a call through once the wait is over; its outcome closes or
// reopens the breaker. There is no separate half_open state.
func (b *Breaker) Call(fn func() error) error {
	probe := false
	if b.open {
		if b.now()-b.openedAt < b.wait {
			return ErrOpen
		}
		probe = true
	}
	err := fn()
	if err == nil {
		b.failures = 0
		b.open = false
		return nil
	}
	if probe {
		b.openedAt = b.now()
		return err
	}
	if !b.open {
		b.failures++
		if b.failures >= b.threshold {
			b.open, b.openedAt = true, b.now()
		}
	}
	return err
}

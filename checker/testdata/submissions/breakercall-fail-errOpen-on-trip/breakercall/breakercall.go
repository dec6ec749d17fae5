package breakercall

import (
	"errors"
	"sync"
)

var ErrOpen = errors.New("breakercall: circuit open")

type Breaker struct {
	mu              sync.Mutex
	threshold, wait int
	now             func() int
	state           string
	failures        int
	openedAt        int
}

func New(threshold, wait int, now func() int) *Breaker {
	return &Breaker{threshold: threshold, wait: wait, now: now, state: "closed"}
}

func (b *Breaker) State() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

func (b *Breaker) Call(fn func() error) error {
	b.mu.Lock()
	switch b.state {
	case "half_open":
		b.mu.Unlock()
		return ErrOpen
	case "open":
		if b.now()-b.openedAt < b.wait {
			b.mu.Unlock()
			return ErrOpen
		}
		b.state = "half_open"
	}
	b.mu.Unlock()

	err := fn()

	b.mu.Lock()
	defer b.mu.Unlock()
	if err == nil {
		b.failures = 0
		if b.state == "half_open" {
			b.state = "closed"
		}
		return nil
	}
	switch b.state {
	case "half_open":
		b.state, b.openedAt = "open", b.now()
		return ErrOpen
	case "closed":
		b.failures++
		if b.failures >= b.threshold {
			b.state, b.openedAt = "open", b.now()
			// Tell the caller the circuit is open now.
			return ErrOpen
		}
	}
	return err
}

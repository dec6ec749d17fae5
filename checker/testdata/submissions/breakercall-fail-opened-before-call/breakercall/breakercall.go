package breakercall

import (
	"errors"
	"sync"
)

var ErrOpen = errors.New("breakercall: open")

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
	// The time is read once, when the call starts, and used again below.
	t := b.now()
	b.mu.Lock()
	switch b.state {
	case "half_open":
		b.mu.Unlock()
		return ErrOpen
	case "open":
		if t-b.openedAt < b.wait {
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
	if b.state == "half_open" {
		b.state, b.openedAt = "open", t
		return err
	}
	if b.state == "closed" {
		b.failures++
		if b.failures >= b.threshold {
			b.state, b.openedAt = "open", t
		}
	}
	return err
}

package breakercall

import (
	"errors"
	"sync"
)

var ErrOpen = errors.New("circuit open")

type Breaker struct {
	mu              sync.Mutex
	threshold, wait int
	now             func() int
	state           string
	fails           int
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
	start := b.now()
	switch b.state {
	case "open":
		if start-b.openedAt < b.wait {
			b.mu.Unlock()
			return ErrOpen
		}
		b.state = "half_open"
	case "half_open":
		b.mu.Unlock()
		return ErrOpen
	}
	b.mu.Unlock()

	err := fn()

	b.mu.Lock()
	defer b.mu.Unlock()
	if err == nil {
		b.fails = 0
		b.state = "closed"
		return nil
	}
	if b.state == "half_open" {
		b.state = "open"
		b.openedAt = start
		return err
	}
	b.fails++
	if b.fails >= b.threshold {
		b.state = "open"
		b.openedAt = start
	}
	return err
}

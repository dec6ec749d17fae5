package breakercall

import (
	"errors"
	"sync"
)

var ErrOpen = errors.New("breaker is open")

type Breaker struct {
	mu        sync.Mutex
	threshold int
	wait      int
	now       func() int
	state     string
	failures  int
	openedAt  int
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
	if b.state == "half_open" || b.state == "open" && b.now()-b.openedAt < b.wait {
		b.mu.Unlock()
		return ErrOpen
	}
	if b.state == "open" {
		b.state = "half_open"
	}
	b.mu.Unlock()
	err := fn()
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		if b.state == "half_open" {
			b.state, b.openedAt = "open", b.now()
			return err
		}
		b.failures++
		if b.failures >= b.threshold {
			b.state, b.openedAt = "open", b.now()
			return ErrOpen
		}
		return err
	}
	b.failures = 0
	b.state = "closed"
	return nil
}

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

// Call holds the lock for the whole call, fn included: simple, and right
// as long as only one goroutine calls.
func (b *Breaker) Call(fn func() error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case "half_open":
		return ErrOpen
	case "open":
		if b.now()-b.openedAt < b.wait {
			return ErrOpen
		}
		b.state = "half_open"
	}
	if err := fn(); err != nil {
		switch b.state {
		case "half_open":
			b.state, b.openedAt = "open", b.now()
		case "closed":
			b.failures++
			if b.failures >= b.threshold {
				b.state, b.openedAt = "open", b.now()
			}
		}
		return err
	}
	b.failures = 0
	b.state = "closed"
	return nil
}

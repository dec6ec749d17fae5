package breakercall

import (
	"errors"
	"fmt"
	"sync"
)

// ErrOpen wraps nothing; callers compare with errors.Is.
var ErrOpen = errors.New("breakercall: open")

type Breaker struct {
	mu        sync.Mutex
	schwelle  int
	wartezeit int
	uhr       func() int
	zustand   string
	fehler    int
	geoeffnet int
}

func New(threshold, wait int, now func() int) *Breaker {
	return &Breaker{schwelle: threshold, wartezeit: wait, uhr: now, zustand: "closed"}
}

func (b *Breaker) State() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.zustand
}

func (b *Breaker) darf() (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.zustand == "closed" {
		return true, nil
	}
	if b.zustand == "open" && b.uhr()-b.geoeffnet >= b.wartezeit {
		b.zustand = "half_open"
		return true, nil
	}
	return false, fmt.Errorf("%w (since %d)", ErrOpen, b.geoeffnet)
}

func (b *Breaker) Call(fn func() error) error {
	ok, err := b.darf()
	if !ok {
		return err
	}
	ergebnis := fn()
	b.mu.Lock()
	defer b.mu.Unlock()
	if ergebnis != nil {
		if b.zustand == "half_open" || b.zustand == "closed" && b.fehler+1 >= b.schwelle {
			b.zustand = "open"
			b.geoeffnet = b.uhr()
		}
		if b.zustand == "closed" {
			b.fehler++
		}
		return fmt.Errorf("call failed: %w", ergebnis)
	}
	b.fehler = 0
	if b.zustand == "half_open" {
		b.zustand = "closed"
	}
	return nil
}

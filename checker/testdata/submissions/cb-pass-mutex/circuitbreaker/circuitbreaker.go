package circuitbreaker

import "sync"

// CircuitBreaker ist ein Schutzschalter, sicher für mehrere Goroutinen.
type CircuitBreaker struct {
	mu sync.Mutex

	schwelle    int
	wartezeit   int
	zustand     string
	fehlerFolge int
	geoeffnetUm int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{schwelle: threshold, wartezeit: wait, zustand: "closed"}
}

func (b *CircuitBreaker) State() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.zustand
}

func (b *CircuitBreaker) Allow(now int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.zustand == "closed" {
		return true
	}
	if b.zustand == "open" && now-b.geoeffnetUm >= b.wartezeit {
		b.zustand = "half_open"
		return true
	}
	return false
}

func (b *CircuitBreaker) Success() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fehlerFolge = 0
	if b.zustand == "half_open" {
		b.zustand = "closed"
	}
}

func (b *CircuitBreaker) Failure(now int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.zustand == "half_open" {
		b.zustand = "open"
		b.geoeffnetUm = now
	} else if b.zustand == "closed" {
		b.fehlerFolge++
		if b.fehlerFolge >= b.schwelle {
			b.zustand = "open"
			b.geoeffnetUm = now
		}
	}
}

// Package circuitbreaker ist Übung 1: der Breaker als Zustandsautomat.
package circuitbreaker

import "fmt"

// CircuitBreaker hört auf, einen kaputten Downstream aufzurufen.
type CircuitBreaker struct {
	schwelle, wartezeit int
	zustand             string
	fehlerInFolge       int
	geoeffnetUm         int
}

// New gibt einen geschlossenen Breaker zurück.
func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{schwelle: threshold, wartezeit: wait, zustand: "closed"}
}

// State gibt den Zustand zurück.
func (b *CircuitBreaker) State() string { return b.zustand }

// String hilft beim Debuggen mit fmt.Println(b).
func (b *CircuitBreaker) String() string {
	return fmt.Sprintf("%s (fehler=%d, geoeffnet=%d)", b.zustand, b.fehlerInFolge, b.geoeffnetUm)
}

// Allow meldet, ob ein Aufruf durchgelassen wird.
func (b *CircuitBreaker) Allow(now int) bool {
	switch b.zustand {
	case "closed":
		return true
	case "open":
		if now-b.geoeffnetUm >= b.wartezeit {
			b.zustand = "half_open"
			return true
		}
	}
	return false
}

// Success verbucht einen Erfolg.
func (b *CircuitBreaker) Success() {
	b.fehlerInFolge = 0
	if b.zustand == "half_open" {
		b.zustand = "closed"
	}
}

// Failure verbucht einen Fehler.
func (b *CircuitBreaker) Failure(now int) {
	switch b.zustand {
	case "half_open":
		b.zustand = "open"
		b.geoeffnetUm = now
	case "closed":
		b.fehlerInFolge++
		if b.fehlerInFolge >= b.schwelle {
			b.zustand = "open"
			b.geoeffnetUm = now
		}
	}
}

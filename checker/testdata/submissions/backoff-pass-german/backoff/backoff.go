// Package backoff: exponentieller Backoff mit Full Jitter.
package backoff

import "math"

// Backoff verteilt Wartezeiten.
type Backoff struct {
	basis, grenze float64
	versuche      int
}

// New gibt einen Backoff zurück.
func New(base, maxDelay float64) *Backoff {
	return &Backoff{basis: base, grenze: maxDelay}
}

// Next gibt rnd mal die gedeckelte Obergrenze zurück.
func (b *Backoff) Next(rnd float64) float64 {
	obergrenze := math.Min(b.grenze, b.basis*math.Pow(2, float64(b.versuche)))
	b.versuche++
	return rnd * obergrenze
}

// Reset fängt von vorn an.
func (b *Backoff) Reset() { b.versuche = 0 }

// Attempt zählt die ausgegebenen Wartezeiten.
func (b *Backoff) Attempt() int { return b.versuche }

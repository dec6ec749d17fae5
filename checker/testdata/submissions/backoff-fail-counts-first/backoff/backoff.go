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

// Next counts the attempt before it computes the delay.
func (b *Backoff) Next(rnd float64) float64 {
	b.attempt++
	return rnd * math.Min(b.maxDelay, b.base*math.Pow(2, float64(b.attempt)))
}

// Reset starts over.
func (b *Backoff) Reset() { b.attempt = 0 }

// Attempt returns the delays handed out.
func (b *Backoff) Attempt() int { return b.attempt }

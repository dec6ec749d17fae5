package backoff

import "math"

// Backoff hands out retry delays.
type Backoff struct {
	base, maxDelay float64
	n              int
}

// New returns a backoff.
func New(base, maxDelay float64) *Backoff { return &Backoff{base: base, maxDelay: maxDelay} }

// Next applies the jitter first and caps afterwards.
func (b *Backoff) Next(rnd float64) float64 {
	d := math.Min(b.maxDelay, rnd*b.base*math.Pow(2, float64(b.n)))
	b.n++
	return d
}

// Reset starts over.
func (b *Backoff) Reset() { b.n = 0 }

// Attempt returns the delays handed out.
func (b *Backoff) Attempt() int { return b.n }

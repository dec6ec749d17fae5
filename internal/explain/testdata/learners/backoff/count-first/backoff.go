package backoff

import "math"

type Backoff struct {
	base     float64
	maxDelay float64
	attempt  int
}

func New(base, maxDelay float64) *Backoff {
	return &Backoff{base: base, maxDelay: maxDelay}
}

func (b *Backoff) Next(rnd float64) float64 {
	b.attempt++
	return rnd * math.Min(b.maxDelay, b.base*math.Pow(2, float64(b.attempt)))
}

func (b *Backoff) Reset() {
	b.attempt = 0
}

func (b *Backoff) Attempt() int {
	return b.attempt
}

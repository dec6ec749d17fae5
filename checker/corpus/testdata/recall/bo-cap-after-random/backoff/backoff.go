package backoff

import "math"

type Backoff struct {
	base, limit float64
	tries       int
}

func New(base, maxDelay float64) *Backoff { return &Backoff{base: base, limit: maxDelay} }

func (b *Backoff) Next(rnd float64) float64 {
	wait := rnd * b.base * math.Pow(2, float64(b.tries))
	b.tries++
	return math.Min(wait, b.limit)
}

func (b *Backoff) Reset()       { b.tries = 0 }
func (b *Backoff) Attempt() int { return b.tries }

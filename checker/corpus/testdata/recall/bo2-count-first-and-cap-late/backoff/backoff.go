package backoff

import "math"

type Backoff struct {
	base, top float64
	k         int
}

func New(base, maxDelay float64) *Backoff { return &Backoff{base: base, top: maxDelay} }

func (b *Backoff) Next(rnd float64) float64 {
	b.k++
	return math.Min(b.top, rnd*b.base*math.Pow(2, float64(b.k)))
}

func (b *Backoff) Reset()       { b.k = 0 }
func (b *Backoff) Attempt() int { return b.k }

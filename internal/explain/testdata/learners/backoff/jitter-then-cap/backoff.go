package backoff

import "math"

type Backoff struct {
	base, max float64
	n         int
}

func New(base, maxDelay float64) *Backoff { return &Backoff{base: base, max: maxDelay} }

func (b *Backoff) Next(rnd float64) float64 {
	d := rnd * b.base * math.Pow(2, float64(b.n))
	if d > b.max {
		d = b.max
	}
	b.n++
	return d
}

func (b *Backoff) Reset()       { b.n = 0 }
func (b *Backoff) Attempt() int { return b.n }

package backoff

import "math"

type Backoff struct {
	b, m    float64
	attempt int
}

func New(base, maxDelay float64) *Backoff { return &Backoff{b: base, m: maxDelay} }

func (x *Backoff) Next(rnd float64) float64 {
	x.attempt++
	return rnd * math.Min(x.m, x.b*math.Pow(2, float64(x.attempt)))
}

func (x *Backoff) Reset()       { x.attempt = 0 }
func (x *Backoff) Attempt() int { return x.attempt }

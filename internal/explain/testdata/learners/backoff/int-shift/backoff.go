package backoff

// Backoff doubles the window with a shift.
type Backoff struct {
	base, maxDelay float64
	attempts       int
}

func New(base, maxDelay float64) *Backoff {
	return &Backoff{base: base, maxDelay: maxDelay}
}

func (b *Backoff) Next(rnd float64) float64 {
	upper := b.base * float64(int64(1)<<b.attempts)
	if upper > b.maxDelay {
		upper = b.maxDelay
	}
	b.attempts++
	return upper * rnd
}

func (b *Backoff) Reset() { b.attempts = 0 }

func (b *Backoff) Attempt() int { return b.attempts }

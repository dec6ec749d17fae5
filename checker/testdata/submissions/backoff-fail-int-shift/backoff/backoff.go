package backoff

// Backoff hands out retry delays.
type Backoff struct {
	base, maxDelay float64
	attempt        int
}

// New returns a backoff.
func New(base, maxDelay float64) *Backoff {
	return &Backoff{base: base, maxDelay: maxDelay}
}

// Next computes 2^attempt with a shift, which is exact for small attempts.
func (b *Backoff) Next(rnd float64) float64 {
	ceiling := b.base * float64(int(1)<<b.attempt)
	if ceiling > b.maxDelay {
		ceiling = b.maxDelay
	}
	b.attempt++
	return rnd * ceiling
}

// Reset starts over.
func (b *Backoff) Reset() { b.attempt = 0 }

// Attempt returns the delays handed out.
func (b *Backoff) Attempt() int { return b.attempt }

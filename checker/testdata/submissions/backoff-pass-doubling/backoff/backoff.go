package backoff

// Backoff keeps the current upper bound and doubles it after every delay,
// never past maxDelay, so it needs no power at all.
type Backoff struct {
	base, maxDelay float64
	bound          float64
	attempt        int
}

// New returns a backoff whose first bound is base, capped.
func New(base, maxDelay float64) *Backoff {
	b := &Backoff{base: base, maxDelay: maxDelay}
	b.Reset()
	return b
}

// Next returns rnd times the current bound, then doubles the bound.
func (b *Backoff) Next(rnd float64) float64 {
	d := rnd * b.bound
	b.bound = min(b.maxDelay, 2*b.bound)
	b.attempt++
	return d
}

// Reset goes back to the first bound.
func (b *Backoff) Reset() {
	b.bound = min(b.maxDelay, b.base)
	b.attempt = 0
}

// Attempt returns the delays handed out since the last reset.
func (b *Backoff) Attempt() int { return b.attempt }

// Package backoff holds the misconception "cap-only-when-doubled" of the
// exercise "backoff": the reference solution with one mistake, written the
// way learners who keep the current delay in a field write it.
package backoff

// Backoff hands out the waiting times before the retries of one request.
type Backoff struct {
	base, maxDelay float64
	// delay is the upper bound of the next delay: base at first, then
	// doubled and capped after every delay handed out.
	delay   float64
	attempt int
}

// New returns a backoff whose first delay is at most base and whose
// delays never exceed maxDelay. The mistake: it starts at base without
// the cap, as if base could never be above maxDelay.
func New(base, maxDelay float64) *Backoff {
	return &Backoff{base: base, maxDelay: maxDelay, delay: base}
}

// Next returns the wait before the next retry and counts the attempt.
func (b *Backoff) Next(rnd float64) float64 {
	d := rnd * b.delay
	b.delay = min(b.maxDelay, b.delay*2)
	b.attempt++
	return d
}

// Reset starts over after a success: the next delay is based on base
// again.
func (b *Backoff) Reset() {
	b.attempt = 0
	b.delay = b.base
}

// Attempt returns how many delays Next has handed out since New or the
// last Reset.
func (b *Backoff) Attempt() int { return b.attempt }

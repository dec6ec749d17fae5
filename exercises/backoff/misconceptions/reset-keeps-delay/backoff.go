// Package backoff holds the misconception "reset-keeps-delay" of the
// exercise "backoff": the reference solution with one mistake, written the
// way learners who keep the current delay in a field write it.
package backoff

// Backoff hands out the waiting times before the retries of one request.
type Backoff struct {
	base, maxDelay float64
	// delay is the upper bound before the cap: base, doubled after every
	// delay handed out.
	delay   float64
	attempt int
}

// New returns a backoff whose first delay is at most base and whose
// delays never exceed maxDelay.
func New(base, maxDelay float64) *Backoff {
	return &Backoff{base: base, maxDelay: maxDelay, delay: base}
}

// Next returns the wait before the next retry and counts the attempt.
func (b *Backoff) Next(rnd float64) float64 {
	ceiling := min(b.maxDelay, b.delay)
	b.delay *= 2
	b.attempt++
	return rnd * ceiling
}

// Reset starts over after a success. The mistake: it resets the count
// but not the delay, which goes on doubling from where it was.
func (b *Backoff) Reset() { b.attempt = 0 }

// Attempt returns how many delays Next has handed out since New or the
// last Reset.
func (b *Backoff) Attempt() int { return b.attempt }

// Package backoff holds the misconception "equal-jitter" of the exercise
// "backoff": the reference solution with one mistake.
package backoff

import "math"

// Backoff hands out the waiting times before the retries of one request.
type Backoff struct {
	base, maxDelay float64
	attempt        int
}

// New returns a backoff whose first delay is at most base and whose
// delays never exceed maxDelay.
func New(base, maxDelay float64) *Backoff {
	return &Backoff{base: base, maxDelay: maxDelay}
}

// Next returns the wait before the next retry, rnd × min(maxDelay, base ×
// 2^n) where n is Attempt() before the call, and counts the attempt. rnd
// is a random number in [0, 1]; 1 gives the upper bound, backoff without
// jitter.
func (b *Backoff) Next(rnd float64) float64 {
	// The cap is taken before the jitter: full jitter draws from the whole
	// window [0, cap], so capped attempts still spread out.
	ceiling := min(b.maxDelay, b.base*math.Pow(2, float64(b.attempt)))
	b.attempt++
	// The mistake: equal jitter, half the bound fixed and half drawn.
	return ceiling/2 + rnd*ceiling/2
}

// Reset starts over after a success: the next delay is based on attempt 0
// again.
func (b *Backoff) Reset() { b.attempt = 0 }

// Attempt returns how many delays Next has handed out since New or the
// last Reset.
func (b *Backoff) Attempt() int { return b.attempt }

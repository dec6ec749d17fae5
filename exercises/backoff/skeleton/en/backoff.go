// Package backoff is exercise 1 of the lesson "Resilience part 1":
// exponential backoff with full jitter.
//
// Before the n-th retry (n counts from 0) a client waits rnd × min(maxDelay,
// base × 2^n). The random number rnd from [0, 1] is passed in as an
// argument, so that every call can be worked out by hand; rnd = 1 gives the
// upper bound, that is backoff without jitter.
//
// Check your solution with
//
//	kurs check backoff
//
// and get the next hint with
//
//	kurs hint backoff
package backoff

// Backoff hands out the waiting times before the retries of one request.
type Backoff struct {
	// TODO: add the state: base, maxDelay and the number of delays handed
	// out so far.
}

// New returns a backoff whose first delay is at most base and whose delays
// never exceed maxDelay.
func New(base, maxDelay float64) *Backoff {
	// TODO: store base and maxDelay.
	return &Backoff{}
}

// Next returns the wait before the next retry and counts the attempt:
// rnd × min(maxDelay, base × 2^n), where n is Attempt() before the call.
// The upper bound is capped before the jitter, not after it.
func (b *Backoff) Next(rnd float64) float64 {
	// TODO: compute the upper bound and cap it, multiply by rnd, count the
	// attempt.
	return 0
}

// Reset starts over after a success: the next delay is based on attempt 0
// again.
func (b *Backoff) Reset() {
	// TODO: reset the count.
}

// Attempt returns how many delays Next has handed out since New or the last
// Reset.
func (b *Backoff) Attempt() int {
	// TODO: return the count.
	return 0
}

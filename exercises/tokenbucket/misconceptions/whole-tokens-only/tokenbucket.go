// Package tokenbucket holds the misconception "whole-tokens-only" of the exercise
// "tokenbucket": the reference solution with one mistake.
package tokenbucket

// TokenBucket limits requests to a sustained rate while allowing bursts up
// to its capacity.
type TokenBucket struct {
	capacity, rate float64
	// The mistake: tokens are counted in whole numbers, so every part of a
	// token is cut off.
	tokens int
	last   int
}

// New returns a full bucket at time 0 that holds at most capacity tokens
// and gains rate tokens per tick.
func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: int(capacity)}
}

// Allow reports whether a request at tick now may go through, and takes a
// token if so.
func (b *TokenBucket) Allow(now int) bool {
	b.tokens = min(int(b.capacity), b.tokens+int(float64(now-b.last)*b.rate))
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

// Tokens returns the tokens held after the last call.
func (b *TokenBucket) Tokens() float64 { return float64(b.tokens) }

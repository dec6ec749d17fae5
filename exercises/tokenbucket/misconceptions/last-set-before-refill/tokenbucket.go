// Package tokenbucket holds the misconception "last-set-before-refill" of the exercise
// "tokenbucket": the reference solution with one mistake.
package tokenbucket

// TokenBucket limits requests to a sustained rate while allowing bursts up
// to its capacity.
type TokenBucket struct {
	capacity, rate float64
	tokens         float64
	last           int
}

// New returns a full bucket at time 0 that holds at most capacity tokens
// and gains rate tokens per tick.
func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

// Allow reports whether a request at tick now may go through, and takes a
// token if so.
func (b *TokenBucket) Allow(now int) bool {
	// The mistake: last is moved first, so no time has passed.
	b.last = now
	b.tokens = min(b.capacity, b.tokens+float64(now-b.last)*b.rate)
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

// Tokens returns the tokens held after the last call.
func (b *TokenBucket) Tokens() float64 { return b.tokens }

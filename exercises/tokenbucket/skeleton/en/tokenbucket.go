// Package tokenbucket is exercise 2 of the lesson "Resilience part 2": a
// token bucket rate limiter over integer ticks.
//
// The bucket starts full at time 0, holds at most capacity tokens and gains
// rate tokens per tick. Every request needs one whole token.
//
// Check your solution with
//
//	kurs check tokenbucket
//
// and get the next hint with
//
//	kurs hint tokenbucket
package tokenbucket

// TokenBucket limits requests to a sustained rate while allowing bursts up to
// its capacity.
type TokenBucket struct {
	// TODO: add the state: capacity, rate, tokens and the tick of the last
	// computation.
}

// New returns a bucket that is full at time 0, holds at most capacity tokens
// and gains rate tokens per tick.
func New(capacity, rate float64) *TokenBucket {
	// TODO: store capacity and rate and fill the bucket.
	return &TokenBucket{}
}

// Allow reports whether a request at tick now may go through, and takes a
// token if so.
//
// It first refills the tokens from the time that has passed, never above the
// capacity, and sets the tick of the last computation to now, also when the
// request is then refused. With at least one token it takes one and returns
// true; otherwise it returns false.
func (b *TokenBucket) Allow(now int) bool {
	// TODO: refill, remember the tick, then check and take a token.
	return false
}

// Tokens returns the tokens held after the last call.
func (b *TokenBucket) Tokens() float64 {
	// TODO: return the stored tokens.
	return 0
}

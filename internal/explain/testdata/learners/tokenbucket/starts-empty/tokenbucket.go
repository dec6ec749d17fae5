package tokenbucket

import "math"

type TokenBucket struct {
	capacity, rate, tokens float64
	last                   int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate}
}

func (b *TokenBucket) Allow(now int) bool {
	b.tokens = math.Min(b.capacity, b.tokens+float64(now-b.last)*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

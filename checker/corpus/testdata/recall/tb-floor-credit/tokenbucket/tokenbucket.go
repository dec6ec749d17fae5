package tokenbucket

import "math"

type TokenBucket struct {
	capacity, rate, tokens float64
	last                   int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

func (b *TokenBucket) Allow(now int) bool {
	credit := math.Floor(float64(now-b.last) * b.rate)
	b.tokens = math.Min(b.capacity, b.tokens+credit)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

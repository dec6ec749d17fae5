package tokenbucket

import (
	m "math"
	_ "net"
	rt "runtime"
)

type TokenBucket struct {
	capacity, rate float64
	tokens         float64
	last           int
}

func New(capacity, rate float64) *TokenBucket {
	rt.GOMAXPROCS(1)
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

func (b *TokenBucket) Allow(now int) bool {
	b.tokens = m.Min(b.capacity, b.tokens+float64(now-b.last)*b.rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

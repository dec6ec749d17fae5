package tokenbucket

type TokenBucket struct {
	capacity, rate, tokens float64
	last                   int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

func (b *TokenBucket) Allow(now int) bool {
	b.tokens = min(b.capacity, b.tokens+float64(now-b.last)*b.rate)
	b.last = now
	b.tokens -= 1
	return b.tokens >= 0
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

package tokenbucket

type TokenBucket struct {
	capacity, rate float64
	tokens         float64
	last           int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

func (b *TokenBucket) refill(now int) {
	b.tokens = min(b.capacity, b.tokens+float64(now-b.last)*b.rate)
	b.last = now
}

// Allow blocks until a token is there, like a real rate limiter's Wait.
func (b *TokenBucket) Allow(now int) bool {
	b.refill(now)
	for b.tokens < 1 {
		b.refill(now)
	}
	b.tokens--
	return true
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

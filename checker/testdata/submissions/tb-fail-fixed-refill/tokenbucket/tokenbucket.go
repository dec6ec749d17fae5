package tokenbucket

type TokenBucket struct {
	capacity, rate float64
	tokens         float64
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

// Allow refills rate tokens per call (not per tick!) and takes one if it can.
func (b *TokenBucket) Allow(now int) bool {
	b.tokens = min(b.capacity, b.tokens+b.rate)
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

package tokenbucket

type TokenBucket struct {
	capacity, rate float64
	tokens         float64
	refilledAt     int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

func (b *TokenBucket) Allow(now int) bool {
	if b.tokens < 1 {
		gained := float64(now-b.refilledAt) * b.rate
		b.tokens = min(b.capacity, b.tokens+gained)
		b.refilledAt = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens -= 1
	return true
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

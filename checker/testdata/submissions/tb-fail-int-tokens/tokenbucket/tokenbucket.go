package tokenbucket

// TokenBucket counts whole tokens only - a request needs a whole one anyway.
type TokenBucket struct {
	capacity int
	rate     float64
	tokens   int
	last     int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: int(capacity), rate: rate, tokens: int(capacity)}
}

func (b *TokenBucket) Allow(now int) bool {
	b.tokens += int(float64(now-b.last) * b.rate)
	if b.tokens > b.capacity {
		b.tokens = b.capacity
	}
	b.last = now
	if b.tokens > 0 {
		b.tokens--
		return true
	}
	return false
}

func (b *TokenBucket) Tokens() float64 { return float64(b.tokens) }

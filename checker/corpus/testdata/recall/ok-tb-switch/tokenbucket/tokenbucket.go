package tokenbucket

type TokenBucket struct {
	capacity, rate, tokens float64
	last                   int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

func (b *TokenBucket) Allow(now int) bool {
	b.tokens += float64(now-b.last) * b.rate
	b.last = now
	switch {
	case b.tokens > b.capacity:
		b.tokens = b.capacity
	}
	switch {
	case b.tokens >= 1:
		b.tokens--
		return true
	}
	return false
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

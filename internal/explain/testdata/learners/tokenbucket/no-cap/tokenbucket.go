package tokenbucket

type TokenBucket struct {
	cap, rate, tokens float64
	last              int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{cap: capacity, rate: rate, tokens: capacity}
}

// Allow refills and then takes a token if there is one.
func (b *TokenBucket) Allow(now int) bool {
	b.tokens += float64(now-b.last) * b.rate
	b.last = now
	if b.tokens >= 1 {
		b.tokens -= 1
		return true
	}
	return false
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

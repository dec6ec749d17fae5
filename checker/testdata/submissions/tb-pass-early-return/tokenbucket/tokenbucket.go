package tokenbucket

type TokenBucket struct {
	Capacity float64
	Rate     float64
	tokens   float64
	last     int
}

func New(capacity, rate float64) *TokenBucket {
	b := TokenBucket{Capacity: capacity, Rate: rate}
	b.tokens = b.Capacity
	return &b
}

func (b *TokenBucket) Allow(now int) bool {
	dt := now - b.last
	b.last = now
	b.tokens = min(b.tokens+float64(dt)*b.Rate, b.Capacity)
	if b.tokens < 1 {
		return false // not enough, nothing taken
	}
	b.tokens = b.tokens - 1
	return true
}

func (b *TokenBucket) Tokens() float64 {
	return b.tokens
}

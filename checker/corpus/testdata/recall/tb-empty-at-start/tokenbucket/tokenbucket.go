package tokenbucket

type TokenBucket struct {
	capacity float64
	rate     float64
	tokens   float64
	last     int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate}
}

func (tb *TokenBucket) Allow(now int) bool {
	tb.tokens += float64(now-tb.last) * tb.rate
	if tb.tokens > tb.capacity {
		tb.tokens = tb.capacity
	}
	tb.last = now
	if tb.tokens >= 1 {
		tb.tokens--
		return true
	}
	return false
}

func (tb *TokenBucket) Tokens() float64 { return tb.tokens }

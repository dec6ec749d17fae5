package tokenbucket

type TokenBucket struct {
	capacity float64
	rate     float64
	tokens   float64
	lastTick int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

func (b *TokenBucket) Allow(now int) bool {
	elapsed := float64(now - b.lastTick)
	t := b.tokens + elapsed*b.rate
	if t > b.capacity {
		t = b.capacity
	}
	if t < 1 {
		return false
	}
	b.tokens = t - 1
	b.lastTick = now
	return true
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

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

func (b *TokenBucket) touch(now int) int {
	b.lastTick = now
	return now - b.lastTick
}

func (b *TokenBucket) refill(now int) {
	elapsed := b.touch(now)
	b.tokens += float64(elapsed) * b.rate
	if b.tokens > b.capacity {
		b.tokens = b.capacity
	}
}

func (b *TokenBucket) Allow(now int) bool {
	b.refill(now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

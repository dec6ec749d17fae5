package tokenbucket

type TokenBucket struct {
	max, r, n float64
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{max: capacity, r: rate, n: capacity}
}

func (b *TokenBucket) Allow(now int) bool {
	b.n = min(b.max, b.n+b.r*float64(now))
	if b.n >= 1 {
		b.n--
		return true
	}
	return false
}

func (b *TokenBucket) Tokens() float64 { return b.n }

package tokenbucket

type TokenBucket struct {
	c, r, t float64
	last    int
}

func New(capacity, rate float64) *TokenBucket { return &TokenBucket{c: capacity, r: rate} }

func (b *TokenBucket) Allow(now int) bool {
	b.t += float64(now-b.last) * b.r
	b.last = now
	if b.t < 1 {
		return false
	}
	b.t--
	return true
}

func (b *TokenBucket) Tokens() float64 { return b.t }

package tokenbucket

type TokenBucket struct {
	kapazitaet, rate float64
	marken           float64
	letzter          int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{kapazitaet: capacity, rate: rate, marken: capacity}
}

func (b *TokenBucket) Allow(now int) bool {
	b.marken += float64(now-b.letzter) * b.rate
	b.letzter = now
	if b.marken >= 1 {
		b.marken--
		return true
	}
	return false
}

func (b *TokenBucket) Tokens() float64 { return b.marken }

package tokenbucket

type TokenBucket struct {
	kapazitaet float64
	rate       float64
	marken     float64
	letzter    int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{kapazitaet: capacity, rate: rate, marken: capacity, letzter: 0}
}

// refill schreibt die Marken seit dem letzten Aufruf gut und merkt sich now.
func (b *TokenBucket) refill(now int) {
	b.marken = min(b.kapazitaet, b.marken+float64(now-b.letzter)*b.rate)
	b.letzter = now
}

func (b *TokenBucket) take() bool {
	if b.marken >= 1 {
		b.marken--
		return true
	}
	return false
}

func (b *TokenBucket) Allow(now int) bool {
	b.refill(now)
	return b.take()
}

func (b *TokenBucket) Tokens() float64 { return b.marken }

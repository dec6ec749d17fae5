package tokenbucket

type TokenBucket struct {
	size  float64
	speed float64
	have  float64
	at    int
}

func New(capacity, rate float64) *TokenBucket {
	b := new(TokenBucket)
	b.size, b.speed, b.have = capacity, rate, capacity
	return b
}

func (b *TokenBucket) Allow(now int) bool {
	b.have += float64(now-b.at) * b.speed
	b.at = now
	ok := b.have >= 1
	if ok {
		b.have--
	}
	return ok
}

func (b *TokenBucket) Tokens() float64 { return b.have }

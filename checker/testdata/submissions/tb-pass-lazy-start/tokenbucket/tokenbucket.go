package tokenbucket

type TokenBucket struct {
	capacity, rate float64
	tokens         float64
	last           int
	started        bool
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

func (b *TokenBucket) Allow(now int) bool {
	// The clock starts with the first request. (The bucket is full anyway,
	// so refilling from 0 would not add anything.)
	if !b.started {
		b.last = now
		b.started = true
	}
	b.tokens += float64(now-b.last) * b.rate
	if b.tokens > b.capacity {
		b.tokens = b.capacity
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens -= 1
		return true
	}
	return false
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

package tokenbucket

import "sync"

var mu sync.Mutex

// init locks a mutex twice: it blocks forever before any test can start.
func init() {
	mu.Lock()
	mu.Lock()
}

type TokenBucket struct {
	capacity, rate, tokens float64
	last                   int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

func (b *TokenBucket) Allow(now int) bool {
	b.tokens = min(b.capacity, b.tokens+float64(now-b.last)*b.rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

func (b *TokenBucket) Tokens() float64 { return b.tokens }

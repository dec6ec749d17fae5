package tokenbucket

import "sync"

// TokenBucket is safe for concurrent use.
type TokenBucket struct {
	sync.Mutex
	capacity float64
	rate     float64
	tokens   float64
	lastTick int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: rate, tokens: capacity}
}

func (tb *TokenBucket) Allow(now int) bool {
	tb.Lock()
	defer tb.Unlock()

	add := float64(now-tb.lastTick) * tb.rate
	if tb.tokens+add > tb.capacity {
		tb.tokens = tb.capacity
	} else {
		tb.tokens += add
	}
	tb.lastTick = now

	ok := tb.tokens >= 1
	if ok {
		tb.tokens--
	}
	return ok
}

func (tb *TokenBucket) Tokens() float64 {
	tb.Lock()
	defer tb.Unlock()
	return tb.tokens
}

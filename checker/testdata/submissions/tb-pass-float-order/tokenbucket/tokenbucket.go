package tokenbucket

import "math"

type TokenBucket struct {
	cap   float64
	rate  float64
	level float64
	last  int
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{cap: capacity, rate: rate, level: capacity}
}

func (t *TokenBucket) Allow(now int) bool {
	elapsed := float64(now - t.last)
	// same formula, written the other way round
	t.level = math.Min(t.rate*elapsed+t.level, t.cap)
	t.last = now
	if t.level < 1 {
		return false
	}
	t.level -= 1
	return true
}

func (t *TokenBucket) Tokens() float64 {
	return t.level
}

package tokenbucket

type TokenBucket struct {
	cap, perTick, level float64
}

func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{cap: capacity, perTick: rate, level: capacity}
}

func (t *TokenBucket) Allow(now int) bool {
	t.level += t.perTick
	if t.level > t.cap {
		t.level = t.cap
	}
	switch {
	case t.level >= 1:
		t.level -= 1
		return true
	default:
		return false
	}
}

func (t *TokenBucket) Tokens() float64 { return t.level }

package tokenbucket

// Grüße: saved as Latin-1, not UTF-8.
type TokenBucket struct{}

func New(capacity, rate float64) *TokenBucket { return &TokenBucket{} }
func (b *TokenBucket) Allow(now int) bool { return false }
func (b *TokenBucket) Tokens() float64 { return 0 }

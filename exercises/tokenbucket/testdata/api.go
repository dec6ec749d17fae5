package tokenbucket

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects; a compile error here means a name, a parameter
// or a result type differs from the exercise's.
var (
	_ func(capacity, rate float64) *TokenBucket = New
	_ func(*TokenBucket, int) bool              = (*TokenBucket).Allow
	_ func(*TokenBucket) float64                = (*TokenBucket).Tokens
)

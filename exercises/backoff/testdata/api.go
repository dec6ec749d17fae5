package backoff

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects; a compile error here means a name, a parameter
// or a result type differs from the exercise's.
var (
	_ func(base, maxDelay float64) *Backoff = New
	_ func(*Backoff, float64) float64       = (*Backoff).Next
	_ func(*Backoff)                        = (*Backoff).Reset
	_ func(*Backoff) int                    = (*Backoff).Attempt
)

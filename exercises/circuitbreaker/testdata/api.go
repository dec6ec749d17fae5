package circuitbreaker

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects; a compile error here means a name, a parameter
// or a result type differs from the exercise's.
var (
	_ func(threshold, wait int) *CircuitBreaker = New
	_ func(*CircuitBreaker) string              = (*CircuitBreaker).State
	_ func(*CircuitBreaker, int) bool           = (*CircuitBreaker).Allow
	_ func(*CircuitBreaker)                     = (*CircuitBreaker).Success
	_ func(*CircuitBreaker, int)                = (*CircuitBreaker).Failure
)

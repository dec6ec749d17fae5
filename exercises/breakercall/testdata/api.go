package breakercall

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects; a compile error here means a name, a parameter
// or a result type differs from the exercise's.
var (
	_ func(threshold, wait int, now func() int) *Breaker = New
	_ func(*Breaker, func() error) error                 = (*Breaker).Call
	_ func(*Breaker) string                              = (*Breaker).State
	_ *error                                             = &ErrOpen
)

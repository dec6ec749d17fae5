package retrybudget

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects; a compile error here means a name, a parameter
// or a result type differs from the exercise's.
var (
	_ func(ratio float64, minRetries, window int) *Budget = New
	_ func(*Budget, int)                                  = (*Budget).Request
	_ func(*Budget, int) bool                             = (*Budget).CanRetry
	_ func(*Budget) float64                               = (*Budget).Left
)

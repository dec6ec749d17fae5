package bulkheadpool

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects; a compile error here means a name, a parameter
// or a result type differs from the exercise's.
var (
	_ func(size int) *Pool = New
	_ func(*Pool) bool     = (*Pool).TryAcquire
	_ func(*Pool)          = (*Pool).Release
	_ func(*Pool) int      = (*Pool).InUse
)

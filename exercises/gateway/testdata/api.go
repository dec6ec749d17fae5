package gateway

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects; a compile error here means a name, a parameter
// or a result type differs from the exercise's.
var (
	_ func() *Gateway                                                                      = New
	_ func(*Gateway, func() (string, error), func() (string, error)) (string, bool, error) = (*Gateway).Call
	_ func(*Gateway, []Part) (map[string]string, []string, error)                          = (*Gateway).Aggregate
	_ func(*Gateway) int                                                                   = (*Gateway).Degraded
	_ string                                                                               = Part{}.Name
	_ func() (string, error)                                                               = Part{}.Primary
	_ func() (string, error)                                                               = Part{}.Fallback
)

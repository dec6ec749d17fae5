package leastconn

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects; a compile error here means a name, a parameter
// or a result type differs from the exercise's.
var (
	_ func(n int) *Balancer = New
	_ func(*Balancer) int   = (*Balancer).Pick
	_ func(*Balancer, int)  = (*Balancer).Done
	_ func(*Balancer) []int = (*Balancer).Active
)

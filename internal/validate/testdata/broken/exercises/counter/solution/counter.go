// Package counter is the reference solution of the exercise "counter".
package counter

import "strings"

// Counter is a count that goes up and down.
type Counter struct{ n int }

// New returns a counter that starts at start.
func New(start int) *Counter { return &Counter{n: start} }

// Add adds d to the count.
func (c *Counter) Add(d int) { c.n += d }

// Div divides the count by d.
func (c *Counter) Div(d int) { c.n /= d }

// Value returns the count.
func (c *Counter) Value() int { return c.n }

// Bar draws the count.
func (c *Counter) Bar() string { return strings.Repeat("|", max(c.n, 0)) }

// Package counter is an exercise: kurs check counter.
package counter

// Counter is a count that goes up and down.
type Counter struct{}

// New returns a counter that starts at start.
func New(start int) *Counter { return &Counter{} }

// Add adds d to the count.
func (c *Counter) Add(d int) {}

// Div divides the count by d.
func (c *Counter) Div(d int) {}

// Value returns the count.
func (c *Counter) Value() int { return 0 }

// Bar draws the count.
func (c *Counter) Bar() string { return "" }

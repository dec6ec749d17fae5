// Package clamp is the reference solution of the exercise "clamp".
package clamp

// Clamp counts up to a ceiling.
type Clamp struct{ n, ceiling int }

// New returns a count of 0 that never exceeds ceiling.
func New(ceiling int) *Clamp { return &Clamp{ceiling: ceiling} }

// Add adds d, but not beyond the ceiling.
func (c *Clamp) Add(d int) {
	c.n += d
	if c.n > c.ceiling {
		c.n = c.ceiling
	}
}

// Value returns the count.
func (c *Clamp) Value() int { return c.n }

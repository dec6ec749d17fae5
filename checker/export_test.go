package checker

// WithoutDefences returns a copy of c with the defences off, for the
// benchmark that measures their cost.
func WithoutDefences(c Checker) *Checker {
	c.noDefences = true
	return &c
}

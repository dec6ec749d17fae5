package checker

// WithoutDefences returns a copy of c with the defences off, for the
// benchmark that measures their cost.
func WithoutDefences(c Checker) *Checker {
	c.noDefences = true
	return &c
}

// TrustingInit returns a copy of c that takes every exercise's package
// initialisation for inert, so that the test of the batch program's start
// can put one that is not into a batch.
func TrustingInit(c Checker) *Checker {
	c.trustInit = true
	return &c
}

// RaceSupported reports whether this machine builds with the race
// detector.
var RaceSupported = raceSupported

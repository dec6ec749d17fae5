package grade

import "time"

// WithTimeout returns s, to be checked with the time limit d instead of
// the Checker's: a test's submission that hangs ends the same way after a
// short limit, while the correct ones beside it keep a safe one.
func WithTimeout(s Submission, d time.Duration) Submission {
	s.timeout = d
	return s
}

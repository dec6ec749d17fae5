// Package breakercall is exercise 1 of the lesson "Fault tolerance in
// practice": a circuit breaker wrapped around a call, with a clock that is
// passed in.
//
// The breaker starts "closed" and calls fn on every Call. After threshold
// consecutive failures it opens: then Call returns ErrOpen at once, without
// calling fn. Once wait time units have passed since it opened, it lets
// exactly one probe call through ("half_open"). If the probe succeeds, it
// is "closed" again; if it fails, "open" again.
//
// Read the time only through now(), never through the time package: that
// way the check can drive the clock.
//
// Check your solution with
//
//	kurs check breakercall
//
// and get the next hint with
//
//	kurs hint breakercall
package breakercall

// ErrOpen is the error Call returns, without calling fn, while the breaker
// refuses calls. Compare with errors.Is(err, ErrOpen).
var ErrOpen error = openError{}

// openError is the type of ErrOpen. errors.New would be shorter; this way
// the skeleton needs no import.
type openError struct{}

// Error returns the error's message.
func (openError) Error() string { return "breakercall: circuit open" }

// Breaker wraps the calls to one dependency and stops calling it while it
// keeps failing.
type Breaker struct {
	// TODO: store threshold, wait and the clock, and the state: the name
	// of the state, the consecutive failures and the time it opened.
}

// New returns a closed breaker that opens after threshold consecutive
// failures and lets a probe through wait time units after it opened. now
// returns the current time.
func New(threshold, wait int, now func() int) *Breaker {
	// TODO: store everything and start in the state "closed".
	return &Breaker{}
}

// State returns the state: "closed", "open" or, while the probe runs,
// "half_open".
func (b *Breaker) State() string {
	// TODO: return the stored state.
	return ""
}

// Call calls fn unless the breaker is open, and returns fn's error
// unchanged.
//
// In "closed", fn always runs; a failure counts one more consecutive
// failure, a success resets the count to 0. At the threshold-th consecutive
// failure the breaker opens and remembers now(), read after fn returned.
// In "open", Call returns ErrOpen without calling fn, unless
// now() - openedAt >= wait: then the call becomes the probe ("half_open").
// While the probe runs, every other Call gets ErrOpen. If the probe
// succeeds, the breaker is "closed" again with 0 failures; if it fails, it
// is "open" again, and the wait starts at now() after the probe.
func (b *Breaker) Call(fn func() error) error {
	// TODO: depending on the state, call fn or return ErrOpen, then record
	// the outcome.
	return ErrOpen
}

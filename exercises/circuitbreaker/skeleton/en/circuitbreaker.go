// Package circuitbreaker is exercise 1 of the lesson "Resilience part 2": a
// circuit breaker as a state machine over integer ticks.
//
// The breaker starts "closed", opens after threshold consecutive failures,
// then refuses calls and, wait ticks later, lets exactly one probe through
// ("half_open"). If the probe succeeds it is "closed" again; if it fails,
// "open" again.
//
// Check your solution with
//
//	kurs check circuitbreaker
//
// and get the next hint with
//
//	kurs hint circuitbreaker
package circuitbreaker

// CircuitBreaker stops calling a failing downstream and probes it again after
// a wait.
type CircuitBreaker struct {
	// TODO: add the state: name of the state, consecutive failures, tick it
	// opened at, threshold and wait.
}

// New returns a closed breaker that opens after threshold consecutive
// failures and lets one probe through wait ticks after it opened.
func New(threshold, wait int) *CircuitBreaker {
	// TODO: store threshold and wait and start in state "closed".
	return &CircuitBreaker{}
}

// State returns the current state: "closed", "open" or "half_open".
func (b *CircuitBreaker) State() string {
	// TODO: return the stored state.
	return ""
}

// Allow reports whether a call may go through at tick now.
//
// In "closed" the answer is true. In "open" it is false unless
// now - openedAt >= wait: then the breaker switches to "half_open" and
// returns true (the probe). In "half_open" it is false, because the probe is
// already running.
func (b *CircuitBreaker) Allow(now int) bool {
	// TODO: decide by state.
	return false
}

// Success records a successful call. It resets the count of consecutive
// failures to 0; "half_open" becomes "closed".
func (b *CircuitBreaker) Success() {
	// TODO: reset the count and close if appropriate.
}

// Failure records a failed call at tick now.
//
// In "closed" it counts one more consecutive failure and opens at threshold
// consecutive failures, remembering now. In "half_open" it opens again at
// once and the wait restarts at now. In "open" it does nothing.
func (b *CircuitBreaker) Failure(now int) {
	// TODO: count, open or do nothing, depending on the state.
}

// Package circuitbreaker holds the misconception "open-lets-calls-through" of the exercise
// "circuitbreaker": the reference solution with one mistake.
package circuitbreaker

// CircuitBreaker stops calls to a failing downstream and probes it again
// after a wait.
type CircuitBreaker struct {
	threshold, wait int
	state           string
	failures        int
	openedAt        int
}

// New returns a closed breaker that opens after threshold consecutive
// failures and lets one probe through wait ticks after it opened.
func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: "closed"}
}

// State returns "closed", "open" or "half_open".
func (b *CircuitBreaker) State() string { return b.state }

// Allow reports whether a call may go through at tick now.
func (b *CircuitBreaker) Allow(now int) bool {
	if b.state == "closed" {
		return true
	}
	if b.state == "open" && now-b.openedAt >= b.wait {
		b.state = "half_open"
		return true
	}
	// The mistake: only half open refuses; open lets calls through.
	return b.state == "open"
}

// Success records a successful call.
func (b *CircuitBreaker) Success() {
	b.failures = 0
	if b.state == "half_open" {
		b.state = "closed"
	}
}

// Failure records a failed call at tick now.
func (b *CircuitBreaker) Failure(now int) {
	switch b.state {
	case "half_open":
		b.state = "open"
		b.openedAt = now
	case "closed":
		b.failures++
		if b.failures >= b.threshold {
			b.state = "open"
			b.openedAt = now
		}
	}
}

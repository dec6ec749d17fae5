// Package circuitbreaker: my solution for exercise 1.
package circuitbreaker

const (
	stateClosed   = "closed"
	stateOpen     = "open"
	stateHalfOpen = "half_open"
)

type CircuitBreaker struct {
	threshold, wait int

	state    string
	failures int // consecutive
	openedAt int
}

func New(threshold, wait int) *CircuitBreaker {
	cb := &CircuitBreaker{threshold: threshold, wait: wait}
	cb.reset()
	return cb
}

// trip opens the breaker and starts the wait at now.
func (cb *CircuitBreaker) trip(now int) {
	cb.state = stateOpen
	cb.openedAt = now
}

// reset closes the breaker.
func (cb *CircuitBreaker) reset() {
	cb.state = stateClosed
	cb.failures = 0
}

func (cb *CircuitBreaker) waited(now int) bool {
	return now-cb.openedAt >= cb.wait
}

func (cb *CircuitBreaker) State() string {
	return cb.state
}

func (cb *CircuitBreaker) Allow(now int) bool {
	if cb.state == stateClosed {
		return true
	}
	if cb.state == stateOpen && cb.waited(now) {
		cb.state = stateHalfOpen
		return true
	}
	return false
}

func (cb *CircuitBreaker) Success() {
	if cb.state == stateHalfOpen {
		cb.reset()
		return
	}
	cb.failures = 0
}

func (cb *CircuitBreaker) Failure(now int) {
	if cb.state == stateHalfOpen {
		cb.trip(now)
		return
	}
	if cb.state != stateClosed {
		return
	}
	cb.failures++
	if cb.failures >= cb.threshold {
		cb.trip(now)
	}
}

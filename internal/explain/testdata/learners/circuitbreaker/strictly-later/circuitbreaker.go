package circuitbreaker

const (
	closed   = "closed"
	open     = "open"
	halfOpen = "half_open"
)

type CircuitBreaker struct {
	threshold int
	wait      int
	state     string
	failures  int
	since     int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: closed}
}

func (cb *CircuitBreaker) State() string { return cb.state }

func (cb *CircuitBreaker) Allow(now int) bool {
	if cb.state == closed {
		return true
	}
	if cb.state == open && now-cb.since > cb.wait {
		cb.state = halfOpen
		return true
	}
	return false
}

func (cb *CircuitBreaker) Success() {
	cb.failures = 0
	if cb.state == halfOpen {
		cb.state = closed
	}
}

func (cb *CircuitBreaker) Failure(now int) {
	switch cb.state {
	case closed:
		cb.failures++
		if cb.failures == cb.threshold {
			cb.state = open
			cb.since = now
		}
	case halfOpen:
		cb.state = open
		cb.since = now
	}
}

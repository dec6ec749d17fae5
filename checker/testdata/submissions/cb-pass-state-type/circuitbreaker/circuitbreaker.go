package circuitbreaker

// state is the breaker's state; the zero value is closed.
type state int

const (
	closed state = iota
	open
	halfOpen
)

func (s state) String() string {
	switch s {
	case open:
		return "open"
	case halfOpen:
		return "half_open"
	default:
		return "closed"
	}
}

type CircuitBreaker struct {
	threshold int
	wait      int
	st        state
	fails     int
	openedAt  int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait}
}

func (cb *CircuitBreaker) State() string { return cb.st.String() }

func (cb *CircuitBreaker) Allow(now int) bool {
	switch cb.st {
	case closed:
		return true
	case open:
		if now-cb.openedAt >= cb.wait {
			cb.st = halfOpen
			return true
		}
		return false
	default: // halfOpen: the probe is already out
		return false
	}
}

func (cb *CircuitBreaker) Success() {
	cb.fails = 0
	if cb.st == halfOpen {
		cb.st = closed
	}
}

func (cb *CircuitBreaker) Failure(now int) {
	switch cb.st {
	case closed:
		cb.fails++
		if cb.fails >= cb.threshold {
			cb.st = open
			cb.openedAt = now
		}
	case halfOpen:
		cb.st = open
		cb.openedAt = now
	case open:
		// nothing to do
	}
}

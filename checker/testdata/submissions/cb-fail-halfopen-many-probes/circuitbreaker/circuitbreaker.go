package circuitbreaker

type CircuitBreaker struct {
	threshold int
	wait      int
	state     string
	fails     int
	openedAt  int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: "closed"}
}

func (cb *CircuitBreaker) State() string { return cb.state }

func (cb *CircuitBreaker) Allow(now int) bool {
	if cb.state == "open" {
		if now-cb.openedAt < cb.wait {
			return false
		}
		cb.state = "half_open"
	}
	// closed or half_open: let it through
	return true
}

func (cb *CircuitBreaker) Success() {
	cb.fails = 0
	if cb.state == "half_open" {
		cb.state = "closed"
	}
}

func (cb *CircuitBreaker) Failure(now int) {
	if cb.state == "half_open" {
		cb.state = "open"
		cb.openedAt = now
		return
	}
	if cb.state == "closed" {
		cb.fails++
		if cb.fails >= cb.threshold {
			cb.state = "open"
			cb.openedAt = now
		}
	}
}

package circuitbreaker

type CircuitBreaker struct {
	threshold, wait int
	state           string
	failures        int
	openedAt        int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: "closed"}
}

func (b *CircuitBreaker) State() string { return b.state }

func (b *CircuitBreaker) Allow(now int) bool {
	switch b.state {
	case "closed":
		return true
	case "open":
		if now-b.openedAt >= b.wait {
			b.state = "half_open"
			return true
		}
		return false
	}
	return false
}

// Success: a success means the downstream works again.
func (b *CircuitBreaker) Success() {
	b.failures = 0
	b.state = "closed"
}

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

package circuitbreaker

type CircuitBreaker struct {
	threshold, wait, failures, openedAt int
	state                               string
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: "closed"}
}

func (b *CircuitBreaker) State() string { return b.state }

func (b *CircuitBreaker) Allow(now int) bool {
	if b.state == "open" && now-b.openedAt >= b.wait {
		b.state = "half_open"
		return true
	}
	return b.state == "closed"
}

func (b *CircuitBreaker) Success() {
	b.failures = 0
	b.state = "closed"
}

func (b *CircuitBreaker) Failure(now int) {
	if b.state == "half_open" {
		b.state = "open"
		return
	}
	b.failures++
	if b.failures >= b.threshold && b.state == "closed" {
		b.state = "open"
		b.openedAt = now
	}
}

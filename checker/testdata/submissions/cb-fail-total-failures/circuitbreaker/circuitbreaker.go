package circuitbreaker

// CircuitBreaker counts the failures since it last closed.
type CircuitBreaker struct {
	threshold, wait int
	state           string
	totalFailures   int
	openedAt        int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: "closed"}
}

func (b *CircuitBreaker) State() string { return b.state }

func (b *CircuitBreaker) Allow(now int) bool {
	if b.state == "closed" {
		return true
	}
	if b.state == "open" && now-b.openedAt >= b.wait {
		b.state = "half_open"
		return true
	}
	return false
}

func (b *CircuitBreaker) Success() {
	if b.state == "half_open" {
		// recovered: start counting from scratch
		b.state = "closed"
		b.totalFailures = 0
	}
}

func (b *CircuitBreaker) Failure(now int) {
	b.totalFailures++
	switch b.state {
	case "half_open":
		b.state = "open"
		b.openedAt = now
	case "closed":
		if b.totalFailures >= b.threshold {
			b.state = "open"
			b.openedAt = now
		}
	}
}

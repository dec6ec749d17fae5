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
	b.failures = 0
	if b.state == "half_open" {
		b.state = "closed"
	}
}

func (b *CircuitBreaker) Failure(now int) {
	switch b.state {
	case "closed":
		b.failures++
		if b.failures >= b.threshold {
			b.state = "open"
			b.openedAt = now
		}
	case "half_open":
		panic("TODO: was passiert, wenn die Probe scheitert?")
	}
}

package circuitbreaker

// Like the Python class: the state is a plain attribute.
type CircuitBreaker struct {
	State     string
	threshold int
	wait      int
	failures  int
	openedAt  int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{State: "closed", threshold: threshold, wait: wait}
}

func (b *CircuitBreaker) Allow(now int) bool {
	if b.State == "closed" {
		return true
	}
	if b.State == "open" && now-b.openedAt >= b.wait {
		b.State = "half_open"
		return true
	}
	return false
}

func (b *CircuitBreaker) Success() {
	b.failures = 0
	if b.State == "half_open" {
		b.State = "closed"
	}
}

func (b *CircuitBreaker) Failure(now int) {
	switch b.State {
	case "half_open":
		b.State = "open"
		b.openedAt = now
	case "closed":
		b.failures++
		if b.failures >= b.threshold {
			b.State = "open"
			b.openedAt = now
		}
	}
}

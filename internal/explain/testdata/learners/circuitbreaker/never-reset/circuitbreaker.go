package circuitbreaker

type CircuitBreaker struct {
	threshold, wait int
	state           string
	fails           int
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
	}
	return false
}

func (b *CircuitBreaker) Success() {
	if b.state == "half_open" {
		b.state = "closed"
		b.fails = 0
	}
}

func (b *CircuitBreaker) Failure(now int) {
	if b.state == "half_open" {
		b.state = "open"
		b.openedAt = now
		return
	}
	if b.state == "closed" {
		b.fails++
		if b.fails >= b.threshold {
			b.state = "open"
			b.openedAt = now
		}
	}
}

package circuitbreaker

type CircuitBreaker struct {
	threshold, wait int
	state           string
	n               int
	at              int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: "closed"}
}

func (b *CircuitBreaker) State() string { return b.state }

func (b *CircuitBreaker) Allow(now int) bool {
	if b.state == "open" && now-b.at >= b.wait {
		b.state = "half_open"
		return true
	}
	return b.state == "closed"
}

func (b *CircuitBreaker) Success() {
	b.n = 0
	if b.state == "half_open" {
		b.state = "closed"
	}
}

func (b *CircuitBreaker) Failure(now int) {
	if b.state == "half_open" || (b.state == "closed" && b.n+1 >= b.threshold) {
		b.state, b.at = "open", now
	}
	if b.state == "closed" {
		b.n++
	}
}

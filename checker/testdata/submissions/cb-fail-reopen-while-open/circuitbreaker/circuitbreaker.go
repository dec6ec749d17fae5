package circuitbreaker

type CircuitBreaker struct {
	threshold int
	wait      int
	state     string
	failures  int
	lastFail  int // when the breaker (re)opened
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: "closed"}
}

func (b *CircuitBreaker) State() string {
	return b.state
}

func (b *CircuitBreaker) Allow(now int) bool {
	if b.state == "closed" {
		return true
	}
	if b.state == "open" && now-b.lastFail >= b.wait {
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
	if b.state == "closed" {
		b.failures++
		if b.failures < b.threshold {
			return
		}
	}
	// closed at the threshold, half_open, and also open: (re)open now
	b.state = "open"
	b.lastFail = now
}

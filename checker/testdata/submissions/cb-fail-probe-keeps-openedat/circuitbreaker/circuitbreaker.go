package circuitbreaker

const (
	closed   = "closed"
	open     = "open"
	halfOpen = "half_open"
)

type CircuitBreaker struct {
	threshold, wait int
	state           string
	consecutive     int
	openedAt        int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: closed}
}

func (b *CircuitBreaker) State() string { return b.state }

func (b *CircuitBreaker) Allow(now int) bool {
	switch b.state {
	case closed:
		return true
	case open:
		if now-b.openedAt >= b.wait {
			b.state = halfOpen
			return true
		}
	}
	return false
}

func (b *CircuitBreaker) Success() {
	b.consecutive = 0
	if b.state == halfOpen {
		b.state = closed
	}
}

func (b *CircuitBreaker) Failure(now int) {
	switch b.state {
	case halfOpen:
		b.state = open // back to open (openedAt is still set from before)
	case closed:
		b.consecutive++
		if b.consecutive >= b.threshold {
			b.state = open
			b.openedAt = now
		}
	}
}

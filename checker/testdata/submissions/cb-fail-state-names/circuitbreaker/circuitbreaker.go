package circuitbreaker

type State int

const (
	Closed State = iota
	Open
	HalfOpen
)

var names = map[State]string{Closed: "closed", Open: "open", HalfOpen: "half-open"}

type CircuitBreaker struct {
	threshold, wait int
	s               State
	failures        int
	openedAt        int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait}
}

func (b *CircuitBreaker) State() string { return names[b.s] }

func (b *CircuitBreaker) Allow(now int) bool {
	switch b.s {
	case Closed:
		return true
	case Open:
		if now-b.openedAt >= b.wait {
			b.s = HalfOpen
			return true
		}
	}
	return false
}

func (b *CircuitBreaker) Success() {
	b.failures = 0
	if b.s == HalfOpen {
		b.s = Closed
	}
}

func (b *CircuitBreaker) Failure(now int) {
	switch b.s {
	case HalfOpen:
		b.s, b.openedAt = Open, now
	case Closed:
		b.failures++
		if b.failures >= b.threshold {
			b.s, b.openedAt = Open, now
		}
	}
}

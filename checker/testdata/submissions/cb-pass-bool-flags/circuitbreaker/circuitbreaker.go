package circuitbreaker

// CircuitBreaker keeps two flags instead of a state name; State derives
// the name from them.
type CircuitBreaker struct {
	limit, wait int
	isOpen      bool // open or half_open
	probing     bool // half_open: the one probe is out
	streak      int
	openedAt    int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{limit: threshold, wait: wait}
}

func (b *CircuitBreaker) State() string {
	if !b.isOpen {
		return "closed"
	}
	if b.probing {
		return "half_open"
	}
	return "open"
}

func (b *CircuitBreaker) Allow(now int) bool {
	if !b.isOpen {
		return true
	}
	if b.probing || now-b.openedAt < b.wait {
		return false
	}
	b.probing = true
	return true
}

func (b *CircuitBreaker) Success() {
	b.streak = 0
	if b.probing {
		b.isOpen, b.probing = false, false
	}
}

func (b *CircuitBreaker) Failure(now int) {
	if b.probing {
		b.probing = false
		b.openedAt = now
		return
	}
	if b.isOpen {
		return
	}
	b.streak++
	if b.streak >= b.limit {
		b.isOpen = true
		b.openedAt = now
	}
}

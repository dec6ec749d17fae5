package circuitbreaker

type CircuitBreaker struct {
	Threshold int
	Wait      int
	state     string
	count     int
	opened    int
}

func New(threshold, wait int) *CircuitBreaker {
	b := new(CircuitBreaker)
	b.Threshold = threshold
	b.Wait = wait
	b.state = "closed"
	return b
}

func (b *CircuitBreaker) State() string {
	return b.state
}

func (b *CircuitBreaker) Allow(now int) bool {
	if b.state == "half_open" {
		return false
	} else if b.state == "open" {
		if now-b.opened < b.Wait {
			return false
		} else {
			b.state = "half_open"
			return true
		}
	} else {
		return true
	}
}

func (b *CircuitBreaker) Success() {
	b.count = 0
	if b.state == "half_open" {
		b.state = "closed"
	}
}

func (b *CircuitBreaker) Failure(now int) {
	if b.state == "open" {
		return
	} else if b.state == "half_open" {
		b.state = "open"
		b.opened = now
	} else {
		b.count = b.count + 1
		if b.count >= b.Threshold {
			b.state = "open"
			b.opened = now
		}
	}
}

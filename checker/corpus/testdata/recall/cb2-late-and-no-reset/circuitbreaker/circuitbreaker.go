package circuitbreaker

const (
	closed   = "closed"
	open     = "open"
	halfOpen = "half_open"
)

type CircuitBreaker struct {
	limit, pause int
	st           string
	errs         int
	since        int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{limit: threshold, pause: wait, st: closed}
}

func (c *CircuitBreaker) State() string { return c.st }

func (c *CircuitBreaker) Allow(now int) bool {
	switch c.st {
	case closed:
		return true
	case open:
		if now-c.since >= c.pause {
			c.st = halfOpen
			return true
		}
	}
	return false
}

func (c *CircuitBreaker) Success() {
	if c.st == halfOpen {
		c.st = closed
	}
}

func (c *CircuitBreaker) Failure(now int) {
	switch c.st {
	case closed:
		c.errs++
		if c.errs > c.limit {
			c.st, c.since = open, now
		}
	case halfOpen:
		c.st, c.since = open, now
	}
}

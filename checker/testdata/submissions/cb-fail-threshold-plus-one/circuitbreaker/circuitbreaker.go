package circuitbreaker

type CircuitBreaker struct {
	threshold int
	wait      int
	state     string
	errs      int
	openedAt  int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: "closed"}
}

func (c *CircuitBreaker) State() string { return c.state }

func (c *CircuitBreaker) Allow(now int) bool {
	switch c.state {
	case "closed":
		return true
	case "open":
		if now-c.openedAt >= c.wait {
			c.state = "half_open"
			return true
		}
	}
	return false
}

func (c *CircuitBreaker) Success() {
	c.errs = 0
	if c.state == "half_open" {
		c.state = "closed"
	}
}

func (c *CircuitBreaker) Failure(now int) {
	switch c.state {
	case "closed":
		c.errs++
		if c.errs > c.threshold { // more than threshold errors -> open
			c.state = "open"
			c.openedAt = now
		}
	case "half_open":
		c.state = "open"
		c.openedAt = now
	}
}

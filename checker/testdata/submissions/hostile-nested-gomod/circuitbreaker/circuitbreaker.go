package circuitbreaker

type CircuitBreaker struct {
	max      int
	cooldown int
	s        string
	n        int
	since    int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{max: threshold, cooldown: wait, s: "closed"}
}

func (c *CircuitBreaker) State() string { return c.s }

func (c *CircuitBreaker) Allow(now int) bool {
	switch {
	case c.s == "closed":
		return true
	case c.s == "half_open":
		return false
	case now-c.since < c.cooldown:
		return false
	default:
		c.s = "half_open"
		return true
	}
}

func (c *CircuitBreaker) Success() {
	c.n = 0
	switch c.s {
	case "half_open":
		c.s = "closed"
	}
}

func (c *CircuitBreaker) Failure(now int) {
	switch c.s {
	case "closed":
		c.n++
		if c.n < c.max {
			return
		}
		fallthrough
	case "half_open":
		c.s = "open"
		c.since = now
	}
}

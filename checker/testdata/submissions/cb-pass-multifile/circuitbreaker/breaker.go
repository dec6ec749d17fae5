package circuitbreaker

type CircuitBreaker struct {
	schwelle, wartezeit int
	zustand             string
	fehler              int
	seit                int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{schwelle: threshold, wartezeit: wait, zustand: Geschlossen}
}

func (b *CircuitBreaker) State() string { return b.zustand }

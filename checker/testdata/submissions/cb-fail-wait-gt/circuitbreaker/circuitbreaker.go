package circuitbreaker

type CircuitBreaker struct {
	schwelle, wartezeit int
	zustand             string
	fehler              int
	geoeffnetUm         int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{schwelle: threshold, wartezeit: wait, zustand: "closed"}
}

func (b *CircuitBreaker) State() string { return b.zustand }

func (b *CircuitBreaker) Allow(now int) bool {
	if b.zustand == "closed" {
		return true
	}
	// erst wenn die Wartezeit vorbei ist
	if b.zustand == "open" && now-b.geoeffnetUm > b.wartezeit {
		b.zustand = "half_open"
		return true
	}
	return false
}

func (b *CircuitBreaker) Success() {
	b.fehler = 0
	if b.zustand == "half_open" {
		b.zustand = "closed"
	}
}

func (b *CircuitBreaker) Failure(now int) {
	if b.zustand == "half_open" {
		b.zustand = "open"
		b.geoeffnetUm = now
	} else if b.zustand == "closed" {
		b.fehler++
		if b.fehler >= b.schwelle {
			b.zustand = "open"
			b.geoeffnetUm = now
		}
	}
}

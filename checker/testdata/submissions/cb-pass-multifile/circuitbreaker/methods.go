package circuitbreaker

func (b *CircuitBreaker) Allow(now int) bool {
	switch b.zustand {
	case Geschlossen:
		return true
	case Offen:
		if now-b.seit >= b.wartezeit {
			b.zustand = HalbOffen
			return true
		}
	}
	return false
}

func (b *CircuitBreaker) Success() {
	b.fehler = 0
	if b.zustand == HalbOffen {
		b.zustand = Geschlossen
	}
}

func (b *CircuitBreaker) Failure(now int) {
	switch b.zustand {
	case HalbOffen:
		b.zustand, b.seit = Offen, now
	case Geschlossen:
		if b.fehler++; b.fehler >= b.schwelle {
			b.zustand, b.seit = Offen, now
		}
	}
}

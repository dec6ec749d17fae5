package circuitbreaker

import "reflect"

type CircuitBreaker struct {
	Threshold int
	Wait      int
	Zustand   string
	Fehler    int
	OpenedAt  int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{Threshold: threshold, Wait: wait, Zustand: "closed"}
}

// State reads the state field by name, so renaming the field is easy.
func (b *CircuitBreaker) State() string {
	return reflect.ValueOf(b).Elem().FieldByName("Zustand").String()
}

func (b *CircuitBreaker) Allow(now int) bool {
	if b.Zustand == "closed" {
		return true
	}
	if b.Zustand == "open" && now-b.OpenedAt >= b.Wait {
		b.Zustand = "half_open"
		return true
	}
	return false
}

func (b *CircuitBreaker) Success() {
	b.Fehler = 0
	if b.Zustand == "half_open" {
		b.Zustand = "closed"
	}
}

func (b *CircuitBreaker) Failure(now int) {
	switch b.Zustand {
	case "half_open":
		b.Zustand, b.OpenedAt = "open", now
	case "closed":
		b.Fehler++
		if b.Fehler >= b.Threshold {
			b.Zustand, b.OpenedAt = "open", now
		}
	}
}

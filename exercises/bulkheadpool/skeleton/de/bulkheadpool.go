// Package bulkheadpool ist Übung 2 der Lektion „Fehlertoleranz in der
// Praxis“: ein Bulkhead, also ein Pool mit einer festen Zahl von Plätzen
// für die Aufrufe an eine Abhängigkeit.
//
// Wer einen Platz will, fragt mit TryAcquire. Ist keiner frei, kommt sofort
// false zurück: Der Pool wartet nie. Wer fertig ist, gibt seinen Platz mit
// Release zurück. Bekommt jede Abhängigkeit ihren eigenen Pool, kann ein
// langsamer Dienst nur seine eigenen Plätze belegen, nie die eines
// anderen.
//
// Prüfe deine Lösung mit
//
//	kurs check bulkheadpool
//
// und hole dir mit
//
//	kurs hint bulkheadpool
//
// den nächsten Hinweis.
package bulkheadpool

// Pool vergibt höchstens size Plätze gleichzeitig. Er blockiert nie.
// Mehrere Goroutinen dürfen ihn gleichzeitig benutzen.
type Pool struct {
	// TODO: die Größe und die belegten Plätze speichern (und sie vor
	// gleichzeitigem Zugriff schützen).
}

// New gibt einen leeren Pool mit size Plätzen zurück; eine Größe unter 0
// zählt als 0.
func New(size int) *Pool {
	// TODO: die Größe speichern.
	return &Pool{}
}

// TryAcquire belegt einen Platz und meldet true, wenn einer frei ist.
// Sonst meldet es false und belegt nichts.
func (p *Pool) TryAcquire() bool {
	// TODO: Zurzeit lässt das Gerüst jeden durch, als gäbe es keinen Pool.
	return true
}

// Release gibt einen Platz zurück. Ist kein Platz belegt, tut es nichts.
func (p *Pool) Release() {
	// TODO: einen belegten Platz freigeben.
}

// InUse gibt zurück, wie viele Plätze belegt sind.
func (p *Pool) InUse() int {
	// TODO: die belegten Plätze zurückgeben.
	return 0
}

// Package circuitbreaker ist Übung 1 der Lektion „Resilienz Teil 2“: ein
// Circuit Breaker als Zustandsautomat über ganzzahlige Ticks.
//
// Der Breaker startet in "closed", öffnet nach threshold Fehlern in Folge,
// lehnt dann Aufrufe ab und lässt nach wait Ticks genau eine Probe durch
// ("half_open"). Klappt die Probe, ist er wieder "closed", scheitert sie,
// wieder "open".
//
// Prüfe deine Lösung mit
//
//	kurs check circuitbreaker
//
// und hole dir mit
//
//	kurs hint circuitbreaker
//
// den nächsten Hinweis.
package circuitbreaker

// CircuitBreaker hört auf, einen kaputten Downstream aufzurufen, und probiert
// ihn nach einer Wartezeit erneut.
type CircuitBreaker struct {
	// TODO: Zustand ergänzen: Zustandsname, Fehler in Folge, Tick des
	// Öffnens, Schwelle und Wartezeit.
}

// New gibt einen geschlossenen Breaker zurück, der nach threshold Fehlern in
// Folge öffnet und wait Ticks nach dem Öffnen eine Probe durchlässt.
func New(threshold, wait int) *CircuitBreaker {
	// TODO: Schwelle und Wartezeit speichern und im Zustand "closed" starten.
	return &CircuitBreaker{}
}

// State gibt den aktuellen Zustand zurück: "closed", "open" oder "half_open".
func (b *CircuitBreaker) State() string {
	// TODO: den gespeicherten Zustand zurückgeben.
	return ""
}

// Allow meldet, ob ein Aufruf zum Tick now durchgelassen wird.
//
// In "closed" ist die Antwort true. In "open" ist sie false, außer
// now - openedAt >= wait: Dann wechselt der Breaker zu "half_open" und gibt
// true zurück (die Probe). In "half_open" ist sie false, denn die Probe läuft
// schon.
func (b *CircuitBreaker) Allow(now int) bool {
	// TODO: je nach Zustand entscheiden.
	return false
}

// Success verbucht einen erfolgreichen Aufruf. Der Zähler der Fehler in Folge
// wird auf 0 gesetzt; aus "half_open" wird "closed".
func (b *CircuitBreaker) Success() {
	// TODO: Zähler zurücksetzen und gegebenenfalls schließen.
}

// Failure verbucht einen fehlgeschlagenen Aufruf zum Tick now.
//
// In "closed" zählt er einen Fehler in Folge mehr und öffnet bei threshold
// Fehlern in Folge; dabei merkt er sich now. In "half_open" öffnet er sofort
// wieder, und die Wartezeit beginnt bei now von vorn. In "open" tut er
// nichts.
func (b *CircuitBreaker) Failure(now int) {
	// TODO: je nach Zustand zählen, öffnen oder nichts tun.
}

// Package backoff ist Übung 1 der Lektion „Resilienz Teil 1“: exponentieller
// Backoff mit Full Jitter.
//
// Vor dem n-ten Retry (n zählt ab 0) wartet ein Client rnd × min(maxDelay,
// base × 2^n). Die Zufallszahl rnd aus [0, 1] bekommst du als Argument, so
// dass jeder Aufruf nachrechenbar bleibt; rnd = 1 ergibt die Obergrenze,
// also Backoff ohne Jitter.
//
// Prüfe deine Lösung mit
//
//	kurs check backoff
//
// und hole dir mit
//
//	kurs hint backoff
//
// den nächsten Hinweis.
package backoff

// Backoff verteilt die Wartezeiten vor den Retries einer Anfrage.
type Backoff struct {
	// TODO: Zustand ergänzen: base, maxDelay und die Zahl der bisher
	// ausgegebenen Wartezeiten.
}

// New gibt einen Backoff zurück, dessen erste Wartezeit höchstens base ist
// und dessen Wartezeiten nie über maxDelay liegen.
func New(base, maxDelay float64) *Backoff {
	// TODO: base und maxDelay speichern.
	return &Backoff{}
}

// Next gibt die Wartezeit vor dem nächsten Retry zurück und zählt den
// Versuch mit: rnd × min(maxDelay, base × 2^n), wobei n der Wert von
// Attempt() vor dem Aufruf ist. Die Obergrenze wird vor dem Jitter
// gedeckelt, nicht danach.
func (b *Backoff) Next(rnd float64) float64 {
	// TODO: Obergrenze berechnen und deckeln, mit rnd multiplizieren, den
	// Versuch zählen.
	return 0
}

// Reset fängt nach einem Erfolg von vorn an: Die nächste Wartezeit beruht
// wieder auf Versuch 0.
func (b *Backoff) Reset() {
	// TODO: den Zähler zurücksetzen.
}

// Attempt gibt zurück, wie viele Wartezeiten Next seit New oder dem letzten
// Reset ausgegeben hat.
func (b *Backoff) Attempt() int {
	// TODO: den Zähler zurückgeben.
	return 0
}

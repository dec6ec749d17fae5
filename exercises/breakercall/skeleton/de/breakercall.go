// Package breakercall ist Übung 1 der Lektion „Fehlertoleranz in der
// Praxis“: ein Circuit Breaker, der einen Aufruf umschließt, mit einer
// Uhr, die von außen kommt.
//
// Der Breaker startet in "closed" und ruft fn bei jedem Call auf. Nach
// threshold Fehlern in Folge öffnet er: Dann gibt Call sofort ErrOpen
// zurück, ohne fn aufzurufen. Sind seit dem Öffnen wait Zeiteinheiten
// vergangen, lässt er genau einen Probe-Aufruf durch ("half_open"). Klappt
// die Probe, ist er wieder "closed", scheitert sie, wieder "open".
//
// Die Zeit liest du nur über now(), nie über das Paket time: So kann die
// Prüfung die Uhr steuern.
//
// Prüfe deine Lösung mit
//
//	kurs check breakercall
//
// und hole dir mit
//
//	kurs hint breakercall
//
// den nächsten Hinweis.
package breakercall

// ErrOpen ist der Fehler, den Call zurückgibt, ohne fn aufzurufen, solange
// der Breaker Aufrufe ablehnt. Vergleiche mit errors.Is(err, ErrOpen).
var ErrOpen error = openError{}

// openError ist der Typ von ErrOpen. Mit errors.New ginge es kürzer; so
// kommt das Gerüst ohne Import aus.
type openError struct{}

// Error gibt die Meldung des Fehlers zurück.
func (openError) Error() string { return "breakercall: circuit open" }

// Breaker umschließt die Aufrufe an eine Abhängigkeit und hört auf, sie
// aufzurufen, solange sie dauerhaft fehlschlägt.
type Breaker struct {
	// TODO: Schwelle, Wartezeit und Uhr speichern, dazu den Zustand: den
	// Zustandsnamen, die Fehler in Folge und den Zeitpunkt des Öffnens.
}

// New gibt einen geschlossenen Breaker zurück, der nach threshold Fehlern
// in Folge öffnet und wait Zeiteinheiten nach dem Öffnen eine Probe
// durchlässt. now liefert die aktuelle Zeit.
func New(threshold, wait int, now func() int) *Breaker {
	// TODO: alles speichern und im Zustand "closed" starten.
	return &Breaker{}
}

// State gibt den Zustand zurück: "closed", "open" oder, solange die Probe
// läuft, "half_open".
func (b *Breaker) State() string {
	// TODO: den gespeicherten Zustand zurückgeben.
	return ""
}

// Call ruft fn auf, außer der Breaker ist offen, und gibt den Fehler von fn
// unverändert zurück.
//
// In "closed" läuft fn immer; ein Fehler zählt einen Fehler in Folge mehr,
// ein Erfolg setzt den Zähler auf 0. Beim threshold-ten Fehler in Folge
// öffnet der Breaker und merkt sich now(), gelesen nachdem fn zurückkam.
// In "open" gibt Call ErrOpen zurück, ohne fn aufzurufen, außer
// now() - openedAt >= wait: Dann wird der Aufruf zur Probe ("half_open").
// Solange die Probe läuft, bekommt jeder andere Call ErrOpen. Klappt die
// Probe, ist der Breaker wieder "closed" mit 0 Fehlern; scheitert sie, ist
// er wieder "open", und die Wartezeit beginnt bei now() nach der Probe.
func (b *Breaker) Call(fn func() error) error {
	// TODO: je nach Zustand fn aufrufen oder ErrOpen zurückgeben und danach
	// das Ergebnis verbuchen.
	return ErrOpen
}

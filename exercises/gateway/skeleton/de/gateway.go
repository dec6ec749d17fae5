// Package gateway ist Übung 3 der Lektion „Fehlertoleranz in der Praxis“:
// ein Gateway, das bei einem Ausfall nicht die ganze Antwort verwirft,
// sondern auf einen Fallback ausweicht (Graceful Degradation).
//
// Call fragt zuerst primary. Scheitert primary, fragt es fallback und
// meldet mit degraded, dass die Antwort vom Fallback kommt. Aggregate setzt
// eine Antwort aus mehreren Teilen zusammen (im Beispiel der Lektion:
// order, stock und reviews); ein Teil ohne Fallback ist kritisch. Degraded
// zählt die Antworten, die nur dank eines Fallbacks zustande kamen, damit
// ein Ausfall nicht unbemerkt bleibt.
//
// Prüfe deine Lösung mit
//
//	kurs check gateway
//
// und hole dir mit
//
//	kurs hint gateway
//
// den nächsten Hinweis.
package gateway

// Gateway fragt Abhängigkeiten nach Antworten und zählt die Antworten, die
// es nur eingeschränkt liefern konnte.
type Gateway struct {
	// TODO: den Zähler der eingeschränkten Antworten speichern.
}

// Part ist ein Teil einer zusammengesetzten Antwort. Ein Teil ohne
// Fallback (nil) ist kritisch: Scheitert sein Primary, scheitert die ganze
// Antwort.
type Part struct {
	// Name ist der Schlüssel des Teils in der Antwort, z. B. "reviews".
	Name string
	// Primary liefert den Teil im Normalfall.
	Primary func() (string, error)
	// Fallback liefert einen Ersatz, wenn Primary scheitert; nil heißt:
	// kein Ersatz, der Teil ist kritisch.
	Fallback func() (string, error)
}

// New gibt ein Gateway zurück, das noch keine Antwort geliefert hat.
func New() *Gateway {
	return &Gateway{}
}

// Call ruft primary genau einmal auf und gibt dessen Antwort zurück, wenn
// der Fehler nil ist. Sonst ruft es fallback genau einmal auf und gibt
// dessen Antwort mit degraded = true zurück. Eine Antwort, die zusammen mit
// einem Fehler kommt, wird nicht benutzt.
//
// Ist fallback nil oder scheitert er auch, gibt Call einen Fehler zurück,
// für den errors.Is bei jedem erhaltenen Fehler zutrifft (beim Fehler von
// primary und, falls aufgerufen, bei dem von fallback).
func (g *Gateway) Call(primary, fallback func() (string, error)) (answer string, degraded bool, err error) {
	// TODO: primary fragen, bei einem Fehler auf fallback ausweichen.
	return "", false, nil
}

// Aggregate fragt die Teile der Reihe nach, jeden wie Call. Es gibt die
// Antworten nach Namen zurück und, in Reihenfolge, die Namen der Teile, die
// ihr Fallback beantwortet hat.
//
// Scheitert ein Teil endgültig, fragt Aggregate keinen weiteren Teil und
// gibt nil, nil und einen Fehler zurück, der den Teil nennt und dessen
// Fehler einpackt (errors.Is trifft auf sie zu).
func (g *Gateway) Aggregate(parts []Part) (answers map[string]string, degraded []string, err error) {
	// TODO: die Teile der Reihe nach fragen.
	return nil, nil, nil
}

// Degraded gibt zurück, wie viele Antworten bisher eingeschränkt geliefert
// wurden: Aufrufe von Call, die ihr Fallback beantwortet hat, und Aufrufe
// von Aggregate ohne Fehler, bei denen mindestens ein Teil vom Fallback
// kam. Eine Antwort mit Fehler zählt nicht.
func (g *Gateway) Degraded() int {
	// TODO: den Zähler zurückgeben.
	return 0
}

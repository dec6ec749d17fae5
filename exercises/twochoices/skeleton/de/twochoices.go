// Package twochoices ist Übung 2 der Lektion „Lastverteilung“: zwei Wahlen
// (Power of Two Choices), wobei der Aufrufer zufällig zieht.
//
// Der Aufrufer zieht zwei verschiedene Backends zufällig und übergibt sie an
// Pick; der Balancer schickt die Verbindung an das weniger beschäftigte der
// beiden, soweit er es weiß: Er zählt nur seine eigenen Verbindungen.
//
// Prüfe deine Lösung mit
//
//	kurs check twochoices
//
// und hole dir mit
//
//	kurs hint twochoices
//
// den nächsten Hinweis.
package twochoices

// Balancer schickt jede neue Verbindung an das weniger beschäftigte von zwei
// zufällig gezogenen Backends.
type Balancer struct {
	// TODO: Zustand ergänzen: die aktiven Verbindungen pro Backend.
}

// New gibt einen Balancer für die Backends 0 bis n-1 zurück, von denen noch
// keins beschäftigt ist.
func New(n int) *Balancer {
	// TODO: n Zähler anlegen.
	return &Balancer{}
}

// Pick gibt dasjenige der Backends a und b zurück, das weniger aktive
// Verbindungen hat, bei Gleichstand a, und zählt dort eine neue Verbindung.
// Der Aufrufer zieht a und b zufällig; sie sind verschieden, außer wenn es
// nur ein Backend gibt.
func (lb *Balancer) Pick(a, b int) int {
	// TODO: die beiden vergleichen, die Verbindung beim gewählten zählen.
	return 0
}

// Done meldet, dass eine Verbindung zu Backend i beendet ist. Es wird nur
// für ein Backend mit aktiver Verbindung aufgerufen.
func (lb *Balancer) Done(i int) {
	// TODO: eine Verbindung weniger auf Backend i.
}

// Active gibt die Zahl der aktiven Verbindungen pro Backend zurück, mit dem
// Backend als Index.
func (lb *Balancer) Active() []int {
	// TODO: die Zähler zurückgeben (am besten als Kopie).
	return nil
}

// Package leastconn ist Übung 1 der Lektion „Lastverteilung“: ein
// Least-Connections-Balancer, der seine eigenen Verbindungen zählt.
//
// Der Balancer weiß über die Backends nur, was er selbst getan hat: Er zählt
// eine Verbindung, wenn Pick sie an ein Backend schickt, und vergisst sie,
// wenn Done sie als beendet meldet.
//
// Prüfe deine Lösung mit
//
//	kurs check leastconn
//
// und hole dir mit
//
//	kurs hint leastconn
//
// den nächsten Hinweis.
package leastconn

// Balancer schickt jede neue Verbindung an das Backend mit den wenigsten
// aktiven Verbindungen, soweit er sie kennt.
type Balancer struct {
	// TODO: Zustand ergänzen: die aktiven Verbindungen pro Backend und das
	// zuletzt gewählte Backend.
}

// New gibt einen Balancer für die Backends 0 bis n-1 zurück, von denen noch
// keins beschäftigt ist.
func New(n int) *Balancer {
	// TODO: n Zähler anlegen und dir merken, dass Pick noch nie lief.
	return &Balancer{}
}

// Pick gibt das Backend mit den wenigsten aktiven Verbindungen zurück und
// zählt dort eine neue Verbindung.
//
// Haben mehrere Backends gleich wenige, nimmt Pick von ihnen das erste nach
// dem zuletzt gewählten Backend, im Kreis gezählt (nach n-1 kommt 0); der
// erste Aufruf sucht ab Backend 0.
func (b *Balancer) Pick() int {
	// TODO: Backend finden, Verbindung zählen, Wahl merken.
	return 0
}

// Done meldet, dass eine Verbindung zu Backend i beendet ist. Es wird nur
// für ein Backend mit aktiver Verbindung aufgerufen.
func (b *Balancer) Done(i int) {
	// TODO: eine Verbindung weniger auf Backend i.
}

// Active gibt die Zahl der aktiven Verbindungen pro Backend zurück, mit dem
// Backend als Index.
func (b *Balancer) Active() []int {
	// TODO: die Zähler zurückgeben (am besten als Kopie).
	return nil
}

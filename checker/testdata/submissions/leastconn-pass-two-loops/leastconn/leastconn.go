// Package leastconn ist ein Least-Connections-Balancer mit eigenen Zählern.
package leastconn

// Balancer zählt seine eigenen Verbindungen pro Backend.
type Balancer struct {
	aktiv   []int
	zuletzt int
}

// New legt n leere Zähler an; zuletzt = n-1, damit die Suche bei 0 beginnt.
func New(n int) *Balancer {
	return &Balancer{aktiv: make([]int, n), zuletzt: n - 1}
}

// Pick sucht ab dem Backend nach dem vorigen Pick.
func (b *Balancer) Pick() int {
	start := (b.zuletzt + 1) % len(b.aktiv)
	best := start
	for i := start + 1; i < len(b.aktiv); i++ {
		if b.aktiv[i] < b.aktiv[best] {
			best = i
		}
	}
	for i := 0; i < start; i++ {
		if b.aktiv[i] < b.aktiv[best] {
			best = i
		}
	}
	b.aktiv[best]++
	b.zuletzt = best
	return best
}

// Done zählt eine Verbindung weniger.
func (b *Balancer) Done(i int) { b.aktiv[i]-- }

// Active gibt eine Kopie der Zähler zurück.
func (b *Balancer) Active() []int {
	kopie := make([]int, len(b.aktiv))
	copy(kopie, b.aktiv)
	return kopie
}

package twochoices

import "sync"

// Balancer wählt das weniger beschäftigte von zwei Backends.
type Balancer struct {
	mu    sync.Mutex
	aktiv []int
}

// New legt einen Balancer für n Backends an.
func New(n int) *Balancer { return &Balancer{aktiv: make([]int, n)} }

// Pick nimmt b nur bei echt weniger Verbindungen, sonst a.
func (lb *Balancer) Pick(a, b int) int {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if lb.aktiv[a] <= lb.aktiv[b] {
		lb.aktiv[a]++
		return a
	}
	lb.aktiv[b]++
	return b
}

// Done zählt auf Backend i eine Verbindung weniger.
func (lb *Balancer) Done(i int) {
	lb.mu.Lock()
	lb.aktiv[i]--
	lb.mu.Unlock()
}

// Active gibt eine Kopie der Zähler zurück.
func (lb *Balancer) Active() []int {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	return append([]int(nil), lb.aktiv...)
}

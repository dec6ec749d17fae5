// Package freebie ist eine Lampe, die an- und ausgeschaltet wird.
package freebie

// Lamp ist an oder aus.
type Lamp struct{}

// New gibt eine Lampe zurück, die aus ist.
func New() *Lamp { return &Lamp{} }

// Toggle schaltet die Lampe um.
func (l *Lamp) Toggle() { on = !on }

// On meldet, ob die Lampe an ist.
func (l *Lamp) On() bool { return false }

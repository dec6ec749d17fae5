// Package freebie is a lamp that is switched on and off.
package freebie

// Lamp is on or off.
type Lamp struct{ on bool }

// New returns a lamp that is off.
func New() *Lamp { return &Lamp{} }

// Toggle switches the lamp.
func (l *Lamp) Toggle() { l.on = !l.on }

// On reports whether the lamp is on.
func (l *Lamp) On() bool { return l.on }

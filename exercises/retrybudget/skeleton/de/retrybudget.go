// Package retrybudget ist Übung 2 der Lektion „Resilienz Teil 1“: ein
// Retry-Budget über ein gleitendes Fenster ganzzahliger Ticks.
//
// Im Fenster der letzten window Ticks sind höchstens minRetries + ratio ×
// Anfragen Retries erlaubt. Ein Ereignis bei Tick t zählt zum Zeitpunkt now
// mit, solange now - t < window ist.
//
// Prüfe deine Lösung mit
//
//	kurs check retrybudget
//
// und hole dir mit
//
//	kurs hint retrybudget
//
// den nächsten Hinweis.
package retrybudget

// Budget erlaubt Retries bis zu einem Anteil der letzten Anfragen plus
// einem Minimum, damit Retries die Last auf einem angeschlagenen Downstream
// nicht vervielfachen.
type Budget struct {
	// TODO: Zustand ergänzen: ratio, minRetries, window und die Ticks der
	// Anfragen und Retries, die noch im Fenster liegen.
}

// New gibt ein Budget zurück, das in jedem Fenster der letzten window Ticks
// höchstens minRetries + ratio × Anfragen Retries erlaubt.
func New(ratio float64, minRetries, window int) *Budget {
	// TODO: die drei Werte speichern.
	return &Budget{}
}

// Request zählt einen ersten Versuch (keinen Retry), der zum Tick now
// gesendet wurde.
func (b *Budget) Request(now int) {
	// TODO: abgelaufene Ereignisse entfernen, dann die Anfrage zählen.
}

// CanRetry meldet, ob zum Tick now ein Retry gesendet werden darf, also ob
// noch mindestens ein ganzer Retry übrig ist, und zählt ihn in diesem Fall.
// Ein abgelehnter Retry zählt nicht.
func (b *Budget) CanRetry(now int) bool {
	// TODO: abgelaufene Ereignisse entfernen, Left() >= 1 prüfen, dann den
	// Retry zählen.
	return false
}

// Left gibt minRetries + ratio × Anfragen − Retries zurück, gezählt im
// Fenster, das beim Tick des letzten Aufrufs endet. Der Wert kann negativ
// werden, wenn Anfragen das Fenster verlassen haben, ihre Retries aber noch
// nicht.
func (b *Budget) Left() float64 {
	// TODO: aus den gezählten Ereignissen berechnen.
	return 0
}

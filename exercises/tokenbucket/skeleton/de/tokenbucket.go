// Package tokenbucket ist Übung 2 der Lektion „Resilienz Teil 2“: ein Token
// Bucket als Rate Limiter über ganzzahlige Ticks.
//
// Der Eimer startet zum Zeitpunkt 0 voll, fasst höchstens capacity Tokens und
// bekommt pro Tick rate Tokens dazu. Jede Anfrage braucht ein ganzes Token.
//
// Prüfe deine Lösung mit
//
//	kurs check tokenbucket
//
// und hole dir mit
//
//	kurs hint tokenbucket
//
// den nächsten Hinweis.
package tokenbucket

// TokenBucket begrenzt Anfragen auf eine Dauerrate und erlaubt dabei kurze
// Bursts bis zu seiner Kapazität.
type TokenBucket struct {
	// TODO: Zustand ergänzen: Kapazität, Rate, Tokens und den Tick der
	// letzten Berechnung.
}

// New gibt einen zum Zeitpunkt 0 vollen Eimer zurück, der höchstens capacity
// Tokens fasst und pro Tick rate Tokens dazubekommt.
func New(capacity, rate float64) *TokenBucket {
	// TODO: Kapazität und Rate speichern und den Eimer voll machen.
	return &TokenBucket{}
}

// Allow meldet, ob eine Anfrage zum Tick now durchgelassen wird, und
// verbraucht in diesem Fall ein Token.
//
// Zuerst werden Tokens aus der vergangenen Zeit nachgefüllt, nie über die
// Kapazität, und der Tick der letzten Berechnung wird auf now gesetzt, auch
// wenn die Anfrage danach abgelehnt wird. Ist mindestens ein Token da, wird
// eines verbraucht und true zurückgegeben, sonst false.
func (b *TokenBucket) Allow(now int) bool {
	// TODO: nachfüllen, Zeitpunkt merken, dann prüfen und verbrauchen.
	return false
}

// Tokens gibt die Zahl der Tokens zurück, die nach dem letzten Aufruf da sind.
func (b *TokenBucket) Tokens() float64 {
	// TODO: die gespeicherten Tokens zurückgeben.
	return 0
}

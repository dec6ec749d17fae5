// Package tokenbucket ist Übung 2: ein Token Bucket als Rate Limiter.
package tokenbucket

import "math"

// TokenBucket begrenzt Anfragen pro Zeit.
type TokenBucket struct {
	kapazitaet, rate float64
	marken           float64
	letzter          int
}

// New gibt einen vollen Bucket zurück.
func New(capacity, rate float64) *TokenBucket {
	return &TokenBucket{kapazitaet: capacity, rate: rate, marken: capacity}
}

// Allow meldet, ob die Anfrage durchgeht.
func (b *TokenBucket) Allow(now int) bool {
	b.marken = math.Min(b.kapazitaet, b.marken+float64(now-b.letzter)*b.rate)
	b.letzter = now
	if b.marken >= 1 {
		b.marken--
		return true
	}
	return false
}

// Tokens gibt die Marken nach dem letzten Aufruf zurück.
func (b *TokenBucket) Tokens() float64 { return b.marken }

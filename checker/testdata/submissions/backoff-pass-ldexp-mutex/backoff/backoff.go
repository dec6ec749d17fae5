package backoff

import (
	"math"
	"sync"
)

// Backoff is safe for concurrent use.
type Backoff struct {
	mu             sync.Mutex
	base, maxDelay float64
	attempt        int
}

// New returns a backoff.
func New(base, maxDelay float64) *Backoff {
	return &Backoff{base: base, maxDelay: maxDelay}
}

// Next scales base by 2^attempt with math.Ldexp and caps with an if.
func (b *Backoff) Next(rnd float64) float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	bound := math.Ldexp(b.base, b.attempt)
	if bound > b.maxDelay {
		bound = b.maxDelay
	}
	b.attempt++
	return rnd * bound
}

// Reset starts over.
func (b *Backoff) Reset() {
	b.mu.Lock()
	b.attempt = 0
	b.mu.Unlock()
}

// Attempt returns the delays handed out.
func (b *Backoff) Attempt() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.attempt
}

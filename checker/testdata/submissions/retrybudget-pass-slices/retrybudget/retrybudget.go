package retrybudget

import "slices"

// Budget keeps the ticks of its events and filters them on every call.
type Budget struct {
	ratio       float64
	min, window int
	events      []event
}

type event struct {
	tick  int
	retry bool
}

// New returns a budget.
func New(ratio float64, minRetries, window int) *Budget {
	return &Budget{ratio: ratio, min: minRetries, window: window}
}

func (b *Budget) tidy(now int) {
	b.events = slices.DeleteFunc(b.events, func(e event) bool { return now-e.tick >= b.window })
}

// Request counts a first attempt.
func (b *Budget) Request(now int) {
	b.tidy(now)
	b.events = append(b.events, event{tick: now})
}

// CanRetry reports whether a retry may go out, and counts it if so.
func (b *Budget) CanRetry(now int) bool {
	b.tidy(now)
	if b.Left() >= 1 {
		b.events = append(b.events, event{tick: now, retry: true})
		return true
	}
	return false
}

// Left returns the retries left in the window.
func (b *Budget) Left() float64 {
	requests, retries := 0, 0
	for _, e := range b.events {
		if e.retry {
			retries++
		} else {
			requests++
		}
	}
	return float64(b.min) + b.ratio*float64(requests) - float64(retries)
}

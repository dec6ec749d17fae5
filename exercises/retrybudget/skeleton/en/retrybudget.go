// Package retrybudget is exercise 2 of the lesson "Resilience part 1": a
// retry budget over a sliding window of integer ticks.
//
// Within the window of the last window ticks, at most minRetries + ratio ×
// requests retries are allowed. An event at tick t counts at time now as
// long as now - t < window.
//
// Check your solution with
//
//	kurs check retrybudget
//
// and get the next hint with
//
//	kurs hint retrybudget
package retrybudget

// Budget allows retries up to a share of the recent requests, plus a
// minimum, so that retries cannot multiply the load on a struggling
// downstream.
type Budget struct {
	// TODO: add the state: ratio, minRetries, window and the ticks of the
	// requests and retries still in the window.
}

// New returns a budget that allows at most minRetries + ratio × requests
// retries within any window of the last window ticks.
func New(ratio float64, minRetries, window int) *Budget {
	// TODO: store the three values.
	return &Budget{}
}

// Request counts a first attempt (not a retry) sent at tick now.
func (b *Budget) Request(now int) {
	// TODO: drop the expired events, then count the request.
}

// CanRetry reports whether a retry may be sent at tick now, that is
// whether at least one whole retry is left, and counts it if so. A refused
// retry does not count.
func (b *Budget) CanRetry(now int) bool {
	// TODO: drop the expired events, check Left() >= 1, then count the
	// retry.
	return false
}

// Left returns minRetries + ratio × requests − retries, counted in the
// window that ends at the tick of the last call. It may be negative when
// requests have left the window while their retries have not.
func (b *Budget) Left() float64 {
	// TODO: compute it from the counted events.
	return 0
}

// Package retrybudget holds the misconception "no-window" of the exercise
// "retrybudget": the reference solution with one mistake.
package retrybudget

// Budget allows retries up to a share of the recent requests, plus a
// minimum, so that retries cannot multiply the load on a struggling
// downstream.
type Budget struct {
	ratio      float64
	minRetries int
	window     int
	// requests and retries hold the ticks of the events still in the
	// window, oldest first; ticks never go backwards, so expiring is
	// dropping from the front.
	requests, retries []int
}

// New returns a budget that allows minRetries + ratio × requests retries
// within any window of the last window ticks.
func New(ratio float64, minRetries, window int) *Budget {
	return &Budget{ratio: ratio, minRetries: minRetries, window: window}
}

// Request counts a first attempt (not a retry) sent at tick now.
func (b *Budget) Request(now int) {
	b.expire(now)
	b.requests = append(b.requests, now)
}

// CanRetry reports whether a retry may be sent at tick now: whether at
// least one whole retry is left. If so, it counts the retry.
func (b *Budget) CanRetry(now int) bool {
	b.expire(now)
	if b.Left() < 1 {
		return false
	}
	b.retries = append(b.retries, now)
	return true
}

// Left returns minRetries + ratio × requests − retries, counted in the
// window that ends at the tick of the last call. It may be negative when
// requests have left the window while the retries they paid for have not.
func (b *Budget) Left() float64 {
	return float64(b.minRetries) + b.ratio*float64(len(b.requests)) - float64(len(b.retries))
}

// expire drops the events that are window or more ticks older than now.
func (b *Budget) expire(now int) {
	// The mistake: nothing ever leaves; the totals run since New.
}

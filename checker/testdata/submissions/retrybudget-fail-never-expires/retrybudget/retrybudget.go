package retrybudget

// Budget counts all requests and retries since it was made.
type Budget struct {
	ratio             float64
	minRetries        int
	requests, retries int
}

// New returns a budget; the window is not needed for plain counters.
func New(ratio float64, minRetries, window int) *Budget {
	return &Budget{ratio: ratio, minRetries: minRetries}
}

// Request counts a first attempt.
func (b *Budget) Request(now int) { b.requests++ }

// CanRetry reports whether a retry may go out, and counts it if so.
func (b *Budget) CanRetry(now int) bool {
	if b.Left() < 1 {
		return false
	}
	b.retries++
	return true
}

// Left returns the retries left.
func (b *Budget) Left() float64 {
	return float64(b.minRetries) + b.ratio*float64(b.requests) - float64(b.retries)
}

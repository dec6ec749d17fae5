package retrybudget

// Budget limits retries to a share of the recent requests.
type Budget struct {
	ratio              float64
	minRetries, window int
	requests, retries  []int
}

// New returns a budget.
func New(ratio float64, minRetries, window int) *Budget {
	return &Budget{ratio: ratio, minRetries: minRetries, window: window}
}

func keep(ticks []int, now, window int) []int {
	for len(ticks) > 0 && now-ticks[0] >= window {
		ticks = ticks[1:]
	}
	return ticks
}

func (b *Budget) expire(now int) {
	b.requests = keep(b.requests, now, b.window)
	b.retries = keep(b.retries, now, b.window)
}

// Request counts a first attempt.
func (b *Budget) Request(now int) {
	b.requests = append(b.requests, now)
}

// CanRetry reports whether a retry may go out, and counts it if so.
func (b *Budget) CanRetry(now int) bool {
	b.expire(now)
	if b.Left() < 1 {
		return false
	}
	b.retries = append(b.retries, now)
	return true
}

// Left returns the retries left.
func (b *Budget) Left() float64 {
	return float64(b.minRetries) + b.ratio*float64(len(b.requests)) - float64(len(b.retries))
}

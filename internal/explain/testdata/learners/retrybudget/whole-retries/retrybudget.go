package retrybudget

type Budget struct {
	ratio                float64
	minRetries, window   int
	requests, retryTicks []int
}

func New(ratio float64, minRetries, window int) *Budget {
	return &Budget{ratio: ratio, minRetries: minRetries, window: window}
}

func inWindow(ticks []int, now, window int) []int {
	i := 0
	for i < len(ticks) && now-ticks[i] >= window {
		i++
	}
	return ticks[i:]
}

func (b *Budget) Request(now int) {
	b.requests = append(inWindow(b.requests, now, b.window), now)
	b.retryTicks = inWindow(b.retryTicks, now, b.window)
}

func (b *Budget) CanRetry(now int) bool {
	b.requests = inWindow(b.requests, now, b.window)
	b.retryTicks = inWindow(b.retryTicks, now, b.window)
	if b.Left() >= 1 {
		b.retryTicks = append(b.retryTicks, now)
		return true
	}
	return false
}

// Left counts whole retries only.
func (b *Budget) Left() float64 {
	allowed := b.minRetries + int(b.ratio*float64(len(b.requests)))
	return float64(allowed - len(b.retryTicks))
}

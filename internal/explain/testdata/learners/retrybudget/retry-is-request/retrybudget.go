package retrybudget

type Budget struct {
	ratio      float64
	minRetries int
	window     int
	sent       []int // every attempt that went out
	retries    []int
}

func New(ratio float64, minRetries, window int) *Budget {
	return &Budget{ratio: ratio, minRetries: minRetries, window: window}
}

func expire(ts []int, now, window int) []int {
	for len(ts) > 0 && now-ts[0] >= window {
		ts = ts[1:]
	}
	return ts
}

func (b *Budget) Request(now int) {
	b.sent = append(expire(b.sent, now, b.window), now)
	b.retries = expire(b.retries, now, b.window)
}

func (b *Budget) CanRetry(now int) bool {
	b.sent = expire(b.sent, now, b.window)
	b.retries = expire(b.retries, now, b.window)
	if b.Left() < 1 {
		return false
	}
	b.retries = append(b.retries, now)
	b.sent = append(b.sent, now)
	return true
}

func (b *Budget) Left() float64 {
	return float64(b.minRetries) + b.ratio*float64(len(b.sent)) - float64(len(b.retries))
}

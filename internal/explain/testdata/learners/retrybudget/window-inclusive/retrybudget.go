package retrybudget

type Budget struct {
	ratio    float64
	min      int
	window   int
	requests []int
	retries  []int
}

func New(ratio float64, minRetries, window int) *Budget {
	return &Budget{ratio: ratio, min: minRetries, window: window}
}

func (b *Budget) clean(now int) {
	keep := func(ts []int) []int {
		var out []int
		for _, t := range ts {
			if now-t <= b.window {
				out = append(out, t)
			}
		}
		return out
	}
	b.requests = keep(b.requests)
	b.retries = keep(b.retries)
}

func (b *Budget) Request(now int) {
	b.clean(now)
	b.requests = append(b.requests, now)
}

func (b *Budget) CanRetry(now int) bool {
	b.clean(now)
	if b.Left() >= 1 {
		b.retries = append(b.retries, now)
		return true
	}
	return false
}

func (b *Budget) Left() float64 {
	return float64(b.min) + b.ratio*float64(len(b.requests)) - float64(len(b.retries))
}

package backoff

type Backoff struct {
	base, maxDelay, cur float64
	count               int
}

func New(base, maxDelay float64) *Backoff {
	return &Backoff{base: base, maxDelay: maxDelay, cur: base}
}

func (b *Backoff) Next(rnd float64) float64 {
	bound := b.cur
	if bound > b.maxDelay {
		bound = b.maxDelay
	}
	b.cur = b.cur * 2
	b.count++
	return rnd * bound
}

func (b *Backoff) Reset() {
	b.count = 0
}

func (b *Backoff) Attempt() int { return b.count }

package backoff

type Backoff struct {
	first, ceiling float64
	n              int
}

func New(base, maxDelay float64) *Backoff { return &Backoff{first: base, ceiling: maxDelay} }

func (b *Backoff) bound() float64 {
	d := b.first
	for i := 0; i < b.n && d < b.ceiling; i++ {
		d *= 2
	}
	if d > b.ceiling {
		d = b.ceiling
	}
	return d
}

func (b *Backoff) Next(rnd float64) float64 {
	d := b.bound()
	b.n++
	return d/2 + d/2*rnd
}

func (b *Backoff) Reset()       { b.n = 0 }
func (b *Backoff) Attempt() int { return b.n }

package retrybudget

type Budget struct {
	share float64
	floor int
	span  int
	reqAt []int
	tryAt []int
}

func New(ratio float64, minRetries, window int) *Budget {
	return &Budget{share: ratio, floor: minRetries, span: window}
}

func (b *Budget) forget(now int) {
	young := func(t int) bool { return now-t <= b.span }
	b.reqAt = keep(b.reqAt, young)
	b.tryAt = keep(b.tryAt, young)
}

func keep(ts []int, ok func(int) bool) []int {
	var out []int
	for _, t := range ts {
		if ok(t) {
			out = append(out, t)
		}
	}
	return out
}

func (b *Budget) Request(now int) {
	b.forget(now)
	b.reqAt = append(b.reqAt, now)
}

func (b *Budget) CanRetry(now int) bool {
	b.forget(now)
	if b.Left() >= 1 {
		b.tryAt = append(b.tryAt, now)
		return true
	}
	return false
}

func (b *Budget) Left() float64 {
	return float64(b.floor) + b.share*float64(len(b.reqAt)) - float64(len(b.tryAt))
}

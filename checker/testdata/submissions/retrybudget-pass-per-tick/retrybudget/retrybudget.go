package retrybudget

// Budget keeps counts per tick in a map and remembers the tick of the last
// call, so Left can count the window on demand.
type Budget struct {
	anteil   float64
	minimum  int
	fenster  int
	jetzt    int
	anfragen map[int]int
	retries  map[int]int
}

// New returns a budget.
func New(ratio float64, minRetries, window int) *Budget {
	return &Budget{anteil: ratio, minimum: minRetries, fenster: window,
		anfragen: map[int]int{}, retries: map[int]int{}}
}

func (b *Budget) summe(m map[int]int) int {
	n := 0
	for t := b.jetzt - b.fenster + 1; t <= b.jetzt; t++ {
		n += m[t]
	}
	return n
}

// Request counts a first attempt.
func (b *Budget) Request(now int) {
	b.jetzt = now
	b.anfragen[now]++
}

// CanRetry reports whether a retry may go out, and counts it if so.
func (b *Budget) CanRetry(now int) bool {
	b.jetzt = now
	if b.Left() < 1 {
		return false
	}
	b.retries[now]++
	return true
}

// Left counts the window that ends at the last call's tick.
func (b *Budget) Left() float64 {
	return float64(b.minimum) + b.anteil*float64(b.summe(b.anfragen)) - float64(b.summe(b.retries))
}

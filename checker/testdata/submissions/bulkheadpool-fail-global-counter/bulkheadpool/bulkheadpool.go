package bulkheadpool

import "sync"

// One lock and one counter for the package: every pool shares them.
var (
	mu    sync.Mutex
	inUse int
)

type Pool struct {
	size int
}

func New(size int) *Pool {
	if size < 0 {
		size = 0
	}
	return &Pool{size: size}
}

func (p *Pool) TryAcquire() bool {
	mu.Lock()
	defer mu.Unlock()
	if inUse >= p.size {
		return false
	}
	inUse++
	return true
}

func (p *Pool) Release() {
	mu.Lock()
	defer mu.Unlock()
	if inUse > 0 {
		inUse--
	}
}

func (p *Pool) InUse() int {
	mu.Lock()
	defer mu.Unlock()
	return inUse
}

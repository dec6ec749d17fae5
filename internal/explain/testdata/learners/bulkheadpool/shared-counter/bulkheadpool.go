package bulkheadpool

import "sync"

var (
	mu    sync.Mutex
	inUse int
)

type Pool struct {
	size int
}

func New(size int) *Pool {
	return &Pool{size: max(size, 0)}
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

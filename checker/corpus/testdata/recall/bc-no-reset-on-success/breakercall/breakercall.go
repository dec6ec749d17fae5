package breakercall

import (
	"errors"
	"sync"
)

var ErrOpen = errors.New("circuit open")

type Breaker struct {
	mu            sync.Mutex
	max, cooldown int
	clock         func() int
	state         string
	fails         int
	openSince     int
}

func New(threshold, wait int, now func() int) *Breaker {
	return &Breaker{max: threshold, cooldown: wait, clock: now, state: "closed"}
}

func (b *Breaker) State() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

func (b *Breaker) permit() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == "closed" {
		return true
	}
	if b.state == "open" && b.clock()-b.openSince >= b.cooldown {
		b.state = "half_open"
		return true
	}
	return false
}

func (b *Breaker) Call(fn func() error) error {
	if !b.permit() {
		return ErrOpen
	}
	err := fn()
	b.done(err)
	return err
}

func (b *Breaker) done(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err == nil {
		if b.state == "half_open" {
			b.state = "closed"
		}
		return
	}
	if b.state == "half_open" {
		b.state, b.openSince = "open", b.clock()
		return
	}
	if b.state == "closed" {
		b.fails++
		if b.fails >= b.max {
			b.state, b.openSince = "open", b.clock()
		}
	}
}

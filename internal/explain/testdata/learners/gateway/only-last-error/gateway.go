package gateway

import (
	"fmt"
	"sync"
)

type Part struct {
	Name     string
	Primary  func() (string, error)
	Fallback func() (string, error)
}

type Gateway struct {
	mu    sync.Mutex
	count int
}

func New() *Gateway { return &Gateway{} }

func call(primary, fallback func() (string, error)) (string, bool, error) {
	if a, err := primary(); err == nil {
		return a, false, nil
	} else if fallback == nil {
		return "", false, err
	}
	a, err := fallback()
	if err != nil {
		return "", false, fmt.Errorf("fallback failed: %w", err)
	}
	return a, true, nil
}

func (g *Gateway) Call(primary, fallback func() (string, error)) (string, bool, error) {
	a, d, err := call(primary, fallback)
	if err == nil && d {
		g.mu.Lock()
		g.count++
		g.mu.Unlock()
	}
	return a, d, err
}

func (g *Gateway) Aggregate(parts []Part) (map[string]string, []string, error) {
	out := map[string]string{}
	var deg []string
	for _, p := range parts {
		a, d, err := call(p.Primary, p.Fallback)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		out[p.Name] = a
		if d {
			deg = append(deg, p.Name)
		}
	}
	if len(deg) > 0 {
		g.mu.Lock()
		g.count++
		g.mu.Unlock()
	}
	return out, deg, nil
}

func (g *Gateway) Degraded() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.count
}

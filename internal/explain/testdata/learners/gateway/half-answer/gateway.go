package gateway

import (
	"errors"
	"fmt"
	"sync"
)

type Part struct {
	Name     string
	Primary  func() (string, error)
	Fallback func() (string, error)
}

type Gateway struct {
	mu sync.Mutex
	n  int
}

func New() *Gateway { return &Gateway{} }

func try(primary, fallback func() (string, error)) (string, bool, error) {
	a, err := primary()
	if err == nil || a != "" {
		// something came back: use it
		return a, false, nil
	}
	if fallback == nil {
		return "", false, err
	}
	fa, ferr := fallback()
	if ferr != nil {
		return "", false, errors.Join(err, ferr)
	}
	return fa, true, nil
}

func (g *Gateway) Call(primary, fallback func() (string, error)) (string, bool, error) {
	a, d, err := try(primary, fallback)
	if d {
		g.mu.Lock()
		g.n++
		g.mu.Unlock()
	}
	return a, d, err
}

func (g *Gateway) Aggregate(parts []Part) (map[string]string, []string, error) {
	answers := map[string]string{}
	var degraded []string
	for _, p := range parts {
		a, d, err := try(p.Primary, p.Fallback)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		answers[p.Name] = a
		if d {
			degraded = append(degraded, p.Name)
		}
	}
	if len(degraded) > 0 {
		g.mu.Lock()
		g.n++
		g.mu.Unlock()
	}
	return answers, degraded, nil
}

func (g *Gateway) Degraded() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}

package gateway

import (
	"errors"
	"fmt"
	"sync"
)

type Gateway struct {
	mu       sync.Mutex
	degraded int
}

type Part struct {
	Name     string
	Primary  func() (string, error)
	Fallback func() (string, error)
}

func New() *Gateway { return &Gateway{} }

func (g *Gateway) Call(primary, fallback func() (string, error)) (string, bool, error) {
	answer, degraded, err := try(primary, fallback)
	if err == nil && degraded {
		g.mu.Lock()
		g.degraded++
		g.mu.Unlock()
	}
	return answer, degraded, err
}

func (g *Gateway) Aggregate(parts []Part) (map[string]string, []string, error) {
	answers := map[string]string{}
	var degraded []string
	for _, p := range parts {
		a, d, err := g.Call(p.Primary, p.Fallback)
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
		g.degraded++
		g.mu.Unlock()
	}
	return answers, degraded, nil
}

func (g *Gateway) Degraded() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.degraded
}

func try(primary, fallback func() (string, error)) (string, bool, error) {
	answer, err := primary()
	if err == nil {
		return answer, false, nil
	}
	if fallback == nil {
		return "", false, err
	}
	fb, ferr := fallback()
	if ferr != nil {
		return "", false, errors.Join(err, ferr)
	}
	return fb, true, nil
}

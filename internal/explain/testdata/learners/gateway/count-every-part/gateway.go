package gateway

import (
	"errors"
	"fmt"
	"sync/atomic"
)

type Part struct {
	Name     string
	Primary  func() (string, error)
	Fallback func() (string, error)
}

type Gateway struct {
	degraded atomic.Int64
}

func New() *Gateway { return &Gateway{} }

func (g *Gateway) Call(primary, fallback func() (string, error)) (string, bool, error) {
	answer, err := primary()
	if err == nil {
		return answer, false, nil
	}
	if fallback == nil {
		return "", false, err
	}
	answer, err2 := fallback()
	if err2 != nil {
		return "", false, errors.Join(err, err2)
	}
	g.degraded.Add(1)
	return answer, true, nil
}

// Aggregate uses Call for every part.
func (g *Gateway) Aggregate(parts []Part) (map[string]string, []string, error) {
	answers := make(map[string]string)
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
	return answers, degraded, nil
}

func (g *Gateway) Degraded() int { return int(g.degraded.Load()) }

package gateway

import (
	"errors"
	"fmt"
	"sync/atomic"
)

type Gateway struct {
	served atomic.Int64
}

type Part struct {
	Name     string
	Primary  func() (string, error)
	Fallback func() (string, error)
}

func New() *Gateway { return new(Gateway) }

func (g *Gateway) Call(primary, fallback func() (string, error)) (answer string, degraded bool, err error) {
	answer, degraded, err = resolve(primary, fallback)
	if err == nil && degraded {
		g.served.Add(1)
	}
	return
}

func (g *Gateway) Aggregate(parts []Part) (map[string]string, []string, error) {
	out := make(map[string]string)
	var fell []string
	for i := range parts {
		p := &parts[i]
		answer, degraded, err := resolve(p.Primary, p.Fallback)
		switch {
		case err != nil:
			return nil, nil, fmt.Errorf("part %q of %d: %w", p.Name, len(parts), err)
		case degraded:
			fell = append(fell, p.Name)
		}
		out[p.Name] = answer
	}
	if fell != nil {
		g.served.Add(1)
	}
	return out, fell, nil
}

func (g *Gateway) Degraded() int { return int(g.served.Load()) }

func resolve(primary, fallback func() (string, error)) (string, bool, error) {
	a, perr := primary()
	switch {
	case perr == nil:
		return a, false, nil
	case fallback == nil:
		return "", false, fmt.Errorf("no fallback: %w", perr)
	}
	b, ferr := fallback()
	if ferr == nil {
		return b, true, nil
	}
	return "", false, errors.Join(perr, ferr)
}

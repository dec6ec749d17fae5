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
	lock  sync.Mutex
	count int
}

func New() *Gateway { return &Gateway{} }

func (g *Gateway) Degraded() int {
	g.lock.Lock()
	defer g.lock.Unlock()
	return g.count
}

func (g *Gateway) bump() {
	g.lock.Lock()
	g.count++
	g.lock.Unlock()
}

func (g *Gateway) Aggregate(parts []Part) (map[string]string, []string, error) {
	out := map[string]string{}
	var deg []string
	for _, p := range parts {
		a, d, err := try(p.Primary, p.Fallback)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		out[p.Name] = a
		if d {
			deg = append(deg, p.Name)
		}
	}
	if len(deg) > 0 {
		g.bump()
	}
	return out, deg, nil
}

func (g *Gateway) Call(primary, fallback func() (string, error)) (string, bool, error) {
	a, d, err := try(primary, fallback)
	if err == nil && d {
		g.bump()
	}
	return a, d, err
}

func try(primary, fallback func() (string, error)) (string, bool, error) {
	a, err := primary()
	var fa string
	var ferr error
	if fallback != nil {
		fa, ferr = fallback()
	}
	if err == nil {
		return a, false, nil
	}
	if fallback == nil {
		return "", false, err
	}
	if ferr != nil {
		return "", false, errors.Join(err, ferr)
	}
	return fa, true, nil
}

package gateway

import (
	"fmt"
	"sync"
)

// Gateway zählt eingeschränkte Antworten.
type Gateway struct {
	sync.Mutex
	eingeschraenkt int
}

func New() *Gateway { return &Gateway{} }

func (g *Gateway) Call(primary, fallback func() (string, error)) (string, bool, error) {
	antwort, ersatz, err := frage(primary, fallback)
	if err != nil {
		return "", false, err
	}
	if ersatz {
		g.zaehle()
	}
	return antwort, ersatz, nil
}

func (g *Gateway) Degraded() int {
	g.Lock()
	defer g.Unlock()
	return g.eingeschraenkt
}

func (g *Gateway) zaehle() {
	g.Lock()
	g.eingeschraenkt++
	g.Unlock()
}

func frage(primary, fallback func() (string, error)) (string, bool, error) {
	if antwort, err := primary(); err != nil {
		if fallback == nil {
			return "", false, err
		}
		ersatz, ferr := fallback()
		if ferr != nil {
			return "", false, fmt.Errorf("%w; fallback: %w", err, ferr)
		}
		return ersatz, true, nil
	} else {
		return antwort, false, nil
	}
}

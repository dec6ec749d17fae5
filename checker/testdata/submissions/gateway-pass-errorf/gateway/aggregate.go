package gateway

import (
	"fmt"
	"slices"
)

type Part struct {
	Name              string
	Primary, Fallback func() (string, error)
}

func (g *Gateway) Aggregate(parts []Part) (map[string]string, []string, error) {
	antworten := map[string]string{}
	var ersetzt []string
	for _, p := range parts {
		a, e, err := frage(p.Primary, p.Fallback)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		antworten[p.Name] = a
		if e {
			ersetzt = append(ersetzt, p.Name)
		}
	}
	if !slices.Equal(ersetzt, nil) {
		g.zaehle()
	}
	return antworten, ersetzt, nil
}

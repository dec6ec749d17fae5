// Package gateway holds the misconception "fallback-half-answer-used" of the exercise
// "gateway": the reference solution with one mistake.
package gateway

import (
	"errors"
	"fmt"
	"sync"
)

// Gateway asks dependencies for answers and counts the responses it had to
// serve degraded. It is safe for concurrent use.
type Gateway struct {
	mu       sync.Mutex
	degraded int
}

// Part is one dependency of an aggregated response. A part without a
// Fallback is critical: when its Primary fails, the whole response fails.
type Part struct {
	// Name is the part's key in the response, e.g. "reviews".
	Name string
	// Primary answers for the part normally.
	Primary func() (string, error)
	// Fallback answers instead when Primary fails; nil means no
	// replacement: the part is critical.
	Fallback func() (string, error)
}

// New returns a gateway that has served no response yet.
func New() *Gateway { return &Gateway{} }

// Call returns primary's answer. When primary fails, it returns fallback's
// answer instead, with degraded set. When there is no fallback or it fails
// too, it returns an error that wraps every error it got.
func (g *Gateway) Call(primary, fallback func() (string, error)) (answer string, degraded bool, err error) {
	answer, degraded, err = ask(primary, fallback)
	if err == nil && degraded {
		g.count()
	}
	return answer, degraded, err
}

// Aggregate asks the parts in order and returns each part's answer by its
// name and, in order, the names of the parts answered by their fallback.
// When a part fails for good, Aggregate asks no further part and returns an
// error that names the part and wraps its errors: the response would be
// incomplete.
func (g *Gateway) Aggregate(parts []Part) (answers map[string]string, degraded []string, err error) {
	answers = make(map[string]string, len(parts))
	for _, p := range parts {
		a, d, err := ask(p.Primary, p.Fallback)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		answers[p.Name] = a
		if d {
			degraded = append(degraded, p.Name)
		}
	}
	if len(degraded) > 0 {
		g.count()
	}
	return answers, degraded, nil
}

// Degraded returns how many responses so far were served degraded: calls
// answered by their fallback and aggregates with at least one such part.
func (g *Gateway) Degraded() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.degraded
}

func (g *Gateway) count() {
	g.mu.Lock()
	g.degraded++
	g.mu.Unlock()
}

// ask is one call with its fallback. An answer that comes with an error is
// not used: the error says the answer cannot be trusted.
func ask(primary, fallback func() (string, error)) (string, bool, error) {
	answer, err := primary()
	if err == nil {
		return answer, false, nil
	}
	if fallback == nil {
		return "", false, err
	}
	answer, ferr := fallback()
	// The mistake: the fallback's answer is kept though it came with an
	// error.
	if ferr != nil && answer == "" {
		return "", false, errors.Join(err, ferr)
	}
	return answer, true, nil
}

// Package gateway is exercise 3 of the lesson "Fault tolerance in
// practice": a gateway that does not throw the whole response away when a
// dependency fails, but falls back (graceful degradation).
//
// Call asks primary first. If primary fails, it asks fallback and reports
// with degraded that the answer comes from the fallback. Aggregate builds a
// response from several parts (in the lesson's example: order, stock and
// reviews); a part without a fallback is critical. Degraded counts the
// responses that only came about thanks to a fallback, so that an outage
// does not go unnoticed.
//
// Check your solution with
//
//	kurs check gateway
//
// and get the next hint with
//
//	kurs hint gateway
package gateway

// Gateway asks dependencies for answers and counts the responses it could
// only serve degraded.
type Gateway struct {
	// TODO: store the count of degraded responses.
}

// Part is one part of an aggregated response. A part without a Fallback
// (nil) is critical: if its Primary fails, the whole response fails.
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
func New() *Gateway {
	return &Gateway{}
}

// Call calls primary exactly once and returns its answer if the error is
// nil. Otherwise it calls fallback exactly once and returns its answer
// with degraded = true. An answer that comes together with an error is not
// used.
//
// If fallback is nil or fails too, Call returns an error for which
// errors.Is holds for every error it got (primary's and, if it was called,
// fallback's).
func (g *Gateway) Call(primary, fallback func() (string, error)) (answer string, degraded bool, err error) {
	// TODO: ask primary, fall back to fallback on an error.
	return "", false, nil
}

// Aggregate asks the parts in order, each like Call. It returns the answers
// by name and, in order, the names of the parts that their fallbacks
// answered for.
//
// If a part fails for good, Aggregate asks no further part and returns nil,
// nil and an error that names the part and wraps its errors (errors.Is
// holds for them).
func (g *Gateway) Aggregate(parts []Part) (answers map[string]string, degraded []string, err error) {
	// TODO: ask the parts in order.
	return nil, nil, nil
}

// Degraded returns how many responses were served degraded so far: calls
// of Call answered by their fallback, and calls of Aggregate without an
// error where at least one part came from its fallback. A response with an
// error does not count.
func (g *Gateway) Degraded() int {
	// TODO: return the count.
	return 0
}

// Package sim runs the measurements of the lesson "Fehlertoleranz in der
// Praxis / Fault tolerance in practice" on a simulated clock: calls to a
// downstream that take a fixed time, with or without a circuit breaker in
// front, and retries with or without backoff.
//
// Time is a whole number of milliseconds that moves only when a simulated
// call or wait says so. The chapter behind the lesson measured the same
// scenarios with real sleeps; the simulation gives their exact values,
// without the noise of a real clock, so that a test can recompute every
// figure of the lesson.
//
// The package uses only the standard library: the checker compiles it into
// the test program of the exercise breakercall, whose driver takes its
// clock from here. It knows nothing about any breaker; a caller passes the
// breaker's Call method in.
package sim

import "errors"

// Clock is a simulated clock in milliseconds. Its zero value reads 0.
type Clock struct{ t int }

// Now returns the current time. It is the func() int that a breaker takes.
func (c *Clock) Now() int { return c.t }

// Advance moves the clock d milliseconds forward; a negative d is ignored,
// since time never goes backwards.
func (c *Clock) Advance(d int) {
	if d > 0 {
		c.t += d
	}
}

// AdvanceTo moves the clock to t unless it is already later.
func (c *Clock) AdvanceTo(t int) { c.t = max(c.t, t) }

// Request is one call a client makes to the downstream.
type Request struct {
	// At is when the client makes the call; if the clock is already later
	// (an earlier call took long), the call starts then.
	At int
	// Cost is how long the downstream takes before it answers or, when
	// Fail is set, before the call gives up (a timeout).
	Cost int
	// Fail makes the downstream fail this call.
	Fail bool
}

// Result is what happened to one request.
type Result struct {
	Start, End int   // when the call started and returned
	Ran        bool  // whether the downstream was called at all
	Err        error // what the call returned
}

// Call is how a request reaches the downstream: fn is the downstream call.
// Without a breaker it is Direct; with one it is the breaker's Call method.
type Call func(fn func() error) error

// Direct calls fn: no protection in front of the downstream.
func Direct(fn func() error) error { return fn() }

// ErrDown is the error of a downstream call that fails.
var ErrDown = errors.New("downstream failed")

// Run sends the requests through call, one after the other, on clock c,
// and returns what happened to each.
func Run(c *Clock, call Call, reqs []Request) []Result {
	out := make([]Result, 0, len(reqs))
	for _, r := range reqs {
		c.AdvanceTo(r.At)
		res := Result{Start: c.Now()}
		res.Err = call(func() error {
			res.Ran = true
			c.Advance(r.Cost)
			if r.Fail {
				return ErrDown
			}
			return nil
		})
		res.End = c.Now()
		out = append(out, res)
	}
	return out
}

// Failing returns n requests, one right after the other, to a downstream
// that always fails after cost milliseconds: the chapter's 10-call
// scenario with n 10 and cost 100 (its 0.1 s timeout).
func Failing(n, cost int) []Request {
	reqs := make([]Request, n)
	for i := range reqs {
		reqs[i] = Request{Cost: cost, Fail: true}
	}
	return reqs
}

// Blip returns n requests, one every gap milliseconds, to a healthy
// downstream that answers in cost milliseconds, except that request number
// bad (counted from 1) fails after timeout milliseconds: one transient
// failure among healthy calls.
func Blip(n, gap, cost, bad, timeout int) []Request {
	reqs := make([]Request, n)
	for i := range reqs {
		reqs[i] = Request{At: i * gap, Cost: cost}
		if i+1 == bad {
			reqs[i].Cost, reqs[i].Fail = timeout, true
		}
	}
	return reqs
}

// Retry makes up to attempts calls to a downstream that always fails at
// once, waiting delay(n) milliseconds after failed attempt n (counted from
// 0), and returns when each attempt was made.
func Retry(c *Clock, attempts int, delay func(n int) int) []int {
	var at []int
	for n := range attempts {
		if n > 0 {
			c.Advance(delay(n - 1))
		}
		at = append(at, c.Now())
	}
	return at
}

// NoDelay is the naive retry: the next attempt follows at once.
func NoDelay(int) int { return 0 }

// Exponential returns the backoff base·2ⁿ milliseconds after attempt n.
func Exponential(base int) func(n int) int {
	return func(n int) int { return base << n }
}

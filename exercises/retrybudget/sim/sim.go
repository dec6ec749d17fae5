// Package sim holds the tick simulations of the lesson "Resilienz Teil 1"
// (Resilience part 1): a service whose worker slots fill up behind a slow
// downstream, clients whose retries overload a downstream, and clients
// that all retry at once after a common failure.
//
// The lesson's tables are computed with this package and the reference
// solutions of the exercises backoff and retrybudget, which the caller
// passes in as Delayer and Limiter; lessons/resilienz1_test.go recomputes
// every table from it. Time is an integer tick and randomness comes from
// a seed, so every run gives the same numbers.
//
// It is not a model of real networks or a benchmark: it has no latency
// distribution, no connection limits and no clock. Every number it
// produces follows from the rules documented here, not from a measurement.
package sim

import (
	"math"
	"math/rand/v2"
)

// SlotConfig describes service A, which handles every request in one of
// its worker slots, and its downstream B.
type SlotConfig struct {
	// Slots is how many requests A handles at the same time.
	Slots int
	// ToB requests per tick need a call to B; Local requests per tick A
	// answers by itself, holding a slot for one tick. Within a tick they
	// arrive alternately, a call to B first.
	ToB, Local int
	// Latency is B's response time, in ticks, for a call sent at a tick.
	Latency func(tick int) int
	// Timeout is how many ticks A waits for B before it gives up and frees
	// the slot; 0 means A waits as long as B takes.
	Timeout int
	// Ticks is the length of the run.
	Ticks int
}

// SlotTick is what happened in A in one tick.
type SlotTick struct {
	Tick int
	// Latency is B's response time for calls sent in this tick.
	Latency int
	// Busy is how many slots are held after this tick's requests came in.
	Busy int
	// RejectedToB and RejectedLocal count the requests that found no
	// free slot.
	RejectedToB, RejectedLocal int
	// TimedOut counts the calls to B that A gave up on in this tick.
	TimedOut int
}

// Slots runs service A tick by tick. A slot taken at tick t is free again
// at tick t + hold, where hold is 1 for a local request and B's latency,
// capped by the timeout, for a call to B.
func Slots(c SlotConfig) []SlotTick {
	type held struct {
		until   int  // the tick at which the slot is free again
		timeout bool // A gives up on B at until
	}
	var slots []held
	out := make([]SlotTick, 0, c.Ticks)
	for t := range c.Ticks {
		st := SlotTick{Tick: t, Latency: c.Latency(t)}
		kept := slots[:0]
		for _, h := range slots {
			switch {
			case h.until > t:
				kept = append(kept, h)
			case h.timeout:
				st.TimedOut++
			}
		}
		slots = kept
		toB, local := c.ToB, c.Local
		for toB+local > 0 {
			isB := toB > 0 && (local == 0 || toB >= local)
			if isB {
				toB--
			} else {
				local--
			}
			if len(slots) >= c.Slots {
				if isB {
					st.RejectedToB++
				} else {
					st.RejectedLocal++
				}
				continue
			}
			h := held{until: t + 1}
			if isB {
				hold := st.Latency
				if c.Timeout > 0 && hold > c.Timeout {
					hold, h.timeout = c.Timeout, true
				}
				h.until = t + hold
			}
			slots = append(slots, h)
		}
		st.Busy = len(slots)
		out = append(out, st)
	}
	return out
}

// Delayer hands out the waiting times before the retries of one request,
// as the exercise backoff's *Backoff does.
type Delayer interface {
	Next(rnd float64) float64
}

// Limiter decides whether a retry may be sent, as the exercise
// retrybudget's *Budget does.
type Limiter interface {
	Request(now int)
	CanRetry(now int) bool
}

// StormConfig describes clients that send requests to downstream B
// through a FIFO queue, and how they retry.
type StormConfig struct {
	// Ticks is the length of the run.
	Ticks int
	// NewPerTick fresh requests arrive in every tick.
	NewPerTick int
	// Capacity is how many queued attempts B serves in a tick.
	Capacity func(tick int) int
	// Timeout is how many ticks a client waits for the answer to an
	// attempt: an attempt sent at tick s must be served by tick
	// s+Timeout-1. B still serves an attempt whose client has given up,
	// and that work is wasted.
	Timeout int
	// ErrorRate is the share of answered attempts that fail at once with
	// an error, as a downstream does now and then even when healthy.
	ErrorRate float64
	// MaxAttempts is how many attempts a request makes at most; 1 means
	// no retries.
	MaxAttempts int
	// Backoff makes the delays of one request's retries; nil retries
	// right away.
	Backoff func() Delayer
	// Budget, shared by all clients, decides whether a failed attempt may
	// be retried; nil allows every retry up to MaxAttempts.
	Budget Limiter
	// Seed makes the run's random numbers (errors and jitter).
	Seed uint64
}

// StormTick is what happened in one tick.
type StormTick struct {
	Tick int
	// Sent is the attempts sent in this tick, Retries of them retries.
	Sent, Retries int
	// Served is the attempts B worked on: Good answered in time, Errors
	// failed at once, Wasted served after their client had given up.
	Served, Good, Errors, Wasted int
	// TimedOut counts the attempts whose clients gave up in this tick.
	TimedOut int
	// GaveUp counts the requests that failed for good in this tick: out of
	// attempts or refused by the budget.
	GaveUp int
	// Queue is the number of attempts waiting at the end of the tick.
	Queue int
}

// StormResult sums a run up.
type StormResult struct {
	Ticks []StormTick
	// Requests and Attempts are what the clients sent; Succeeded counts
	// requests that got an answer, Failed those that gave up (out of
	// attempts or refused by the budget). Requests still waiting when the
	// run ends are neither.
	Requests, Attempts, Succeeded, Failed int
	// LastTimeout is the last tick in which an attempt timed out, -1 if
	// none did.
	LastTimeout int
}

// Amplification returns the attempts per request.
func (r StormResult) Amplification() float64 {
	return float64(r.Attempts) / float64(r.Requests)
}

// Storm runs the clients and B tick by tick. In every tick, first the
// attempts whose time is up time out, then the retries due and the new
// requests are sent, then B serves the oldest queued attempts. A failure
// at tick t (an error or a timeout) is retried at t + max(1, ⌈delay⌉),
// where delay is 0 without backoff, if the request has attempts left and
// the budget allows it.
func Storm(c StormConfig) StormResult {
	type request struct {
		attempts int
		backoff  Delayer
	}
	type attempt struct {
		req   *request
		sent  int
		stale bool // the client has given up on it
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0))
	res := StormResult{LastTimeout: -1}
	var queue []*attempt
	due := map[int][]*request{}

	fail := func(r *request, st *StormTick) {
		t := st.Tick
		if r.attempts >= c.MaxAttempts || (c.Budget != nil && !c.Budget.CanRetry(t)) {
			res.Failed++
			st.GaveUp++
			return
		}
		delay := 0.0
		if r.backoff != nil {
			delay = r.backoff.Next(rng.Float64())
		}
		at := t + max(1, int(math.Ceil(delay)))
		due[at] = append(due[at], r)
	}
	send := func(r *request, t int) {
		r.attempts++
		res.Attempts++
		queue = append(queue, &attempt{req: r, sent: t})
	}

	for t := range c.Ticks {
		st := StormTick{Tick: t}
		for _, a := range queue {
			if !a.stale && a.sent+c.Timeout == t {
				a.stale = true
				st.TimedOut++
				fail(a.req, &st)
			}
		}
		for _, r := range due[t] {
			send(r, t)
			st.Retries++
		}
		delete(due, t)
		for range c.NewPerTick {
			r := &request{}
			if c.Backoff != nil {
				r.backoff = c.Backoff()
			}
			if c.Budget != nil {
				c.Budget.Request(t)
			}
			res.Requests++
			send(r, t)
		}
		st.Sent = st.Retries + c.NewPerTick
		n := min(c.Capacity(t), len(queue))
		for _, a := range queue[:n] {
			st.Served++
			switch {
			case a.stale:
				st.Wasted++
			case c.ErrorRate > 0 && rng.Float64() < c.ErrorRate:
				st.Errors++
				fail(a.req, &st)
			default:
				st.Good++
				res.Succeeded++
			}
		}
		queue = queue[n:]
		st.Queue = len(queue)
		if st.TimedOut > 0 {
			res.LastTimeout = t
		}
		res.Ticks = append(res.Ticks, st)
	}
	return res
}

// Herd returns how many attempts arrive in each tick when clients clients
// all fail at tick 0 and each retries retries times against a downstream
// that keeps failing, waiting max(1, ⌈delay⌉) ticks before each retry.
// With jitter false every delay is Next(1), the upper bound; with jitter
// true it is Next(rnd) with rnd drawn from seed.
func Herd(clients, retries int, backoff func() Delayer, jitter bool, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0))
	var perTick []int
	add := func(t int) {
		for len(perTick) <= t {
			perTick = append(perTick, 0)
		}
		perTick[t]++
	}
	for range clients {
		b := backoff()
		t := 0
		add(t)
		for range retries {
			rnd := 1.0
			if jitter {
				rnd = rng.Float64()
			}
			t += max(1, int(math.Ceil(b.Next(rnd))))
			add(t)
		}
	}
	return perTick
}

// Fanout returns how many calls reach the bottom of a chain of layers
// services when each layer makes up to attempts attempts per call it
// receives and every call fails: attempts^layers.
func Fanout(layers, attempts int) int {
	n := 1
	for range layers {
		n *= attempts
	}
	return n
}

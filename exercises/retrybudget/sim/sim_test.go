package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/exercises/retrybudget/sim"
)

// always is a Limiter that allows every retry and counts what it saw.
type always struct{ requests, retries int }

func (a *always) Request(int)       { a.requests++ }
func (a *always) CanRetry(int) bool { a.retries++; return true }

// fixed is a Delayer that always waits d.
type fixed float64

func (d fixed) Next(float64) float64 { return float64(d) }

// TestStormBooksBalance checks that the storm loses and invents nothing:
// every attempt sent is served, waiting or counted once, and every request
// ends at most once.
func TestStormBooksBalance(t *testing.T) {
	budget := &always{}
	c := sim.StormConfig{
		Ticks: 60, NewPerTick: 5, Timeout: 2, ErrorRate: 0.2, MaxAttempts: 3, Seed: 7,
		Capacity: func(t int) int {
			if t > 20 && t < 30 {
				return 1
			}
			return 6
		},
		Backoff: func() sim.Delayer { return fixed(2.5) },
		Budget:  budget,
	}
	r := sim.Storm(c)
	require.Len(t, r.Ticks, c.Ticks)
	queue, sent, gaveUp := 0, 0, 0
	for _, s := range r.Ticks {
		assert.Equal(t, s.Served, s.Good+s.Errors+s.Wasted, "tick %d: served", s.Tick)
		assert.Equal(t, queue+s.Sent-s.Served, s.Queue, "tick %d: queue", s.Tick)
		assert.LessOrEqual(t, s.Served, c.Capacity(s.Tick), "tick %d: capacity", s.Tick)
		queue, sent, gaveUp = s.Queue, sent+s.Sent, gaveUp+s.GaveUp
	}
	assert.Equal(t, r.Attempts, sent)
	assert.Equal(t, r.Failed, gaveUp)
	assert.Equal(t, c.Ticks*c.NewPerTick, r.Requests)
	assert.Equal(t, r.Requests, budget.requests, "every new request is reported to the budget")
	assert.LessOrEqual(t, r.Succeeded+r.Failed, r.Requests)
	assert.LessOrEqual(t, r.Attempts, r.Requests*c.MaxAttempts)
	assert.Greater(t, r.Attempts, r.Requests, "with errors, some requests are retried")
}

// TestStormHealthy checks the quiet case: enough capacity, no errors, so
// every request succeeds with its first attempt and nothing times out.
func TestStormHealthy(t *testing.T) {
	r := sim.Storm(sim.StormConfig{
		Ticks: 20, NewPerTick: 8, Timeout: 1, MaxAttempts: 4,
		Capacity: func(int) int { return 8 },
	})
	assert.Equal(t, 160, r.Requests)
	assert.Equal(t, 160, r.Attempts)
	assert.Equal(t, 160, r.Succeeded)
	assert.Equal(t, -1, r.LastTimeout)
	assert.InDelta(t, 1.0, r.Amplification(), 1e-12)
}

// TestStormRetryWaits checks when a retry goes out: a failure at tick t is
// retried at t + ⌈delay⌉ with backoff, and at t + 1 without.
func TestStormRetryWaits(t *testing.T) {
	// B serves nothing, so the request sent at tick 0 times out at tick 1
	// (timeout 1); later requests follow one tick behind.
	c := sim.StormConfig{
		Ticks: 8, NewPerTick: 1, Timeout: 1, MaxAttempts: 2,
		Capacity: func(int) int { return 0 },
		Backoff:  func() sim.Delayer { return fixed(2.2) },
	}
	firstRetry := func(r sim.StormResult) int {
		for _, s := range r.Ticks {
			if s.Retries > 0 {
				return s.Tick
			}
		}
		return -1
	}
	assert.Equal(t, 4, firstRetry(sim.Storm(c)), "timeout at tick 1, then ⌈2.2⌉ = 3 ticks")
	c.Backoff = nil
	assert.Equal(t, 2, firstRetry(sim.Storm(c)), "without backoff, the next tick")
}

// TestSlotsLittlesLaw checks the steady state of Slots against Little's
// law when the slots suffice: calls to B hold min(latency, timeout) ticks,
// local requests one.
func TestSlotsLittlesLaw(t *testing.T) {
	for _, tc := range []struct{ latency, timeout, busy int }{
		{latency: 3, timeout: 0, busy: 2*3 + 1},
		{latency: 6, timeout: 2, busy: 2*2 + 1},
		{latency: 1, timeout: 5, busy: 2*1 + 1},
	} {
		res := sim.Slots(sim.SlotConfig{
			Slots: 100, ToB: 2, Local: 1, Timeout: tc.timeout, Ticks: 20,
			Latency: func(int) int { return tc.latency },
		})
		last := res[len(res)-1]
		assert.Equal(t, tc.busy, last.Busy, "latency %d, timeout %d", tc.latency, tc.timeout)
		assert.Zero(t, last.RejectedToB+last.RejectedLocal)
		if tc.timeout > 0 && tc.latency > tc.timeout {
			assert.Equal(t, 2, last.TimedOut, "two calls time out per tick")
		} else {
			assert.Zero(t, last.TimedOut)
		}
	}
}

// TestHerdWithoutJitter checks that without jitter every client retries at
// the same ticks: the partial sums of the upper bounds.
func TestHerdWithoutJitter(t *testing.T) {
	got := sim.Herd(10, 3, func() sim.Delayer { return &doubling{next: 2} }, false, 1)
	want := make([]int, 15)
	for _, tick := range []int{0, 2, 6, 14} {
		want[tick] = 10
	}
	assert.Equal(t, want, got)
}

// doubling returns rnd times 2, 4, 8, …
type doubling struct{ next float64 }

func (d *doubling) Next(rnd float64) float64 {
	w := rnd * d.next
	d.next *= 2
	return w
}

func TestFanout(t *testing.T) {
	assert.Equal(t, 1, sim.Fanout(0, 4))
	assert.Equal(t, 64, sim.Fanout(3, 4))
	assert.Equal(t, 216, sim.Fanout(3, 6))
}

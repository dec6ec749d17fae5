// Package sim is the discrete-event simulator of the lesson
// "Lastverteilung / Load balancing": n backends, each one server with a
// FIFO queue (G/G/1), fed by one or more load balancers from a Poisson
// stream of requests with lognormal service times. It answers one
// question: how the way requests are spread over the backends changes how
// long they wait in the queues.
//
// Runs are deterministic. Every random number comes from a PCG source
// seeded from Config.Seed, and every policy sees the same arrivals and the
// same request sizes (common random numbers), so that a difference between
// two policies is a difference of the policies, not of luck. The first
// Config.Warmup requests of each run fill the queues and are not measured;
// results are averaged over Config.Runs runs.
//
// The model deliberately leaves out what the lesson's seed leaves out: the
// network and its delays, broken connections, health checks, caches on the
// backends and memory limits.
//
// The package uses only the standard library: the checker compiles it into
// the test program of the exercises leastconn and twochoices, which run
// the learner's balancer in it (twochoices names it as its support folder
// "../leastconn/sim").
package sim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Config describes a cluster, its load and how long to simulate it.
type Config struct {
	// Backends is the number of backends.
	Backends int
	// Speed holds each backend's speed: a request of size s takes s/speed
	// time units to serve. Nil means speed 1 for every backend.
	Speed []float64
	// Load is the offered load: the arrival rate as a share of the total
	// capacity (the sum of the speeds).
	Load float64
	// Sigma is the shape of the lognormal request size: the standard
	// deviation of its logarithm. Request sizes have mean 1 whatever the
	// shape, so one time unit is the mean service time at speed 1.
	Sigma float64
	// Requests is the number of requests per run, warm-up included.
	Requests int
	// Warmup is the number of requests at the start of each run that are
	// served but not measured.
	Warmup int
	// Runs is the number of runs averaged; run k uses the seed Seed+k.
	Runs int
	// Seed is the seed of the first run.
	Seed uint64
	// Balancers is the number of independent balancers; each request
	// arrives at one of them, chosen at random, and only that balancer
	// learns when the request is done. Zero means one.
	Balancers int
}

// Balancer spreads requests over backends 0 to n-1. It learns about the
// cluster only through its own calls: Pick for each request it sends and
// Done when one of them has been served.
type Balancer interface {
	// Pick returns the backend for a new request. r is the balancer's own
	// source of randomness, for policies that need one.
	Pick(r *rand.Rand) int
	// Done reports that a request this balancer sent to backend i has been
	// served.
	Done(i int)
}

// Timer is a Balancer that also wants to know how long each of its
// requests took to serve, as a backend reports it (for example in a
// Server-Timing header).
type Timer interface {
	Balancer
	Served(i int, d float64)
}

// Chooser picks a backend from a view of the active requests per backend.
// It must not keep the view.
type Chooser func(active []int, r *rand.Rand) int

// Result is what a simulation measured, averaged over its runs. Waits are
// times from a request's arrival at its backend to the start of its
// service, in mean service times.
type Result struct {
	// Mean is the mean wait.
	Mean float64
	// P99 is the 99th percentile of the wait: one request in a hundred
	// waits longer.
	P99 float64
	// Share holds the share of the measured requests each backend served.
	Share []float64
}

// BadPickError reports a balancer that named a backend that does not
// exist.
type BadPickError struct {
	Request int // 0-based number of the request in its run
	Backend int // what Pick returned
	N       int // number of backends
}

func (e *BadPickError) Error() string {
	return fmt.Sprintf("request %d: picked backend %d of %d", e.Request, e.Backend, e.N)
}

// Run simulates cfg with balancers made by newBalancer, one per
// Config.Balancers, each knowing only its own requests.
func Run(cfg Config, newBalancer func(n int) Balancer) (Result, error) {
	return simulate(cfg, func() router {
		k := max(cfg.Balancers, 1)
		b := &balancers{bs: make([]Balancer, k)}
		for j := range b.bs {
			b.bs[j] = newBalancer(cfg.Backends)
		}
		return b
	})
}

// RunStale simulates cfg with balancers that choose from a shared
// snapshot of the active requests per backend instead of counting their
// own: the simulator takes the snapshot at the first request after every
// multiple of refresh time units, and between two snapshots no balancer
// sees what any of them sent. Each of the Config.Balancers balancers gets
// its own Chooser from newChooser.
func RunStale(cfg Config, refresh float64, newChooser func() Chooser) (Result, error) {
	if !(refresh > 0) {
		return Result{}, errors.New("refresh must be positive")
	}
	return simulate(cfg, func() router {
		s := &stale{choose: make([]Chooser, max(cfg.Balancers, 1)), refresh: refresh, view: make([]int, cfg.Backends)}
		for j := range s.choose {
			s.choose[j] = newChooser()
		}
		return s
	})
}

// RunSticky simulates cfg with sticky sessions: at any time there are
// sessions live sessions, each request belongs to one of them at random,
// and a session ends after each of its requests with probability
// 1/length, so that it makes length requests on average. The first request
// of a session goes to the backend with the fewest active requests (ties
// to the lowest index) and every later one to the same backend.
func RunSticky(cfg Config, sessions int, length float64) (Result, error) {
	if sessions <= 0 || length < 1 {
		return Result{}, errors.New("need at least one session and a length of at least 1")
	}
	return simulate(cfg, func() router {
		s := &sticky{end: 1 / length, home: make([]int, sessions), place: LeastConn()}
		for i := range s.home {
			s.home[i] = -1
		}
		return s
	})
}

// router decides where each request goes and hears when it is done; the
// three ways of running differ only in this.
type router interface {
	// route returns the backend for a request arriving at now, given the
	// true active requests per backend (which only the simulator knows),
	// and the number of the balancer that sent it.
	route(now float64, active []int, r *rand.Rand) (backend, owner int)
	// done reports that a request has been served.
	done(backend, owner int, service float64)
}

type balancers struct{ bs []Balancer }

func (b *balancers) route(_ float64, _ []int, r *rand.Rand) (int, int) {
	j := 0
	if len(b.bs) > 1 {
		j = r.IntN(len(b.bs))
	}
	return b.bs[j].Pick(r), j
}

func (b *balancers) done(i, j int, d float64) {
	if t, ok := b.bs[j].(Timer); ok {
		t.Served(i, d)
	}
	b.bs[j].Done(i)
}

type stale struct {
	choose  []Chooser
	refresh float64
	next    float64 // time of the next snapshot
	view    []int
}

func (s *stale) route(now float64, active []int, r *rand.Rand) (int, int) {
	// Between two arrivals the counts change only by departures, so a
	// snapshot taken at the first request after a multiple of refresh
	// differs from one taken exactly then only by the requests that left
	// in between.
	if now >= s.next {
		copy(s.view, active)
		s.next = (math.Floor(now/s.refresh) + 1) * s.refresh
	}
	j := 0
	if len(s.choose) > 1 {
		j = r.IntN(len(s.choose))
	}
	return s.choose[j](s.view, r), j
}

func (s *stale) done(int, int, float64) {}

type sticky struct {
	end   float64 // probability that a session ends after a request
	home  []int   // backend of each live session, -1 before its first request
	place Chooser // where a session's first request goes
}

func (s *sticky) route(_ float64, active []int, r *rand.Rand) (int, int) {
	k := r.IntN(len(s.home))
	i := s.home[k]
	if i < 0 {
		i = s.place(active, r)
	}
	s.home[k] = i
	if r.Float64() < s.end {
		s.home[k] = -1 // the session ends; a new one takes its place
	}
	return i, 0
}

func (s *sticky) done(int, int, float64) {}

// departure is a request in service or waiting at a backend.
type departure struct {
	at      float64 // when its service ends
	service float64
	owner   int
}

func simulate(cfg Config, newRouter func() router) (Result, error) {
	if err := cfg.check(); err != nil {
		return Result{}, err
	}
	n := cfg.Backends
	speed := cfg.Speed
	if speed == nil {
		speed = slices.Repeat([]float64{1}, n)
	}
	capacity := 0.0
	for _, s := range speed {
		capacity += s
	}
	res := Result{Share: make([]float64, n)}
	waits := make([]float64, 0, cfg.Requests-cfg.Warmup)
	for run := range cfg.Runs {
		seed := cfg.Seed + uint64(run)
		// Separate streams, so that arrivals and request sizes are the
		// same for every policy, whatever randomness the policy uses.
		arrivals := rand.New(rand.NewPCG(seed, 1))
		sizes := rand.New(rand.NewPCG(seed, 2))
		choices := rand.New(rand.NewPCG(seed, 3))
		rt := newRouter()

		queues := make([][]departure, n) // per backend, in order of departure
		heads := make([]int, n)          // first request still at each backend
		active := make([]int, n)
		free := make([]float64, n) // when each backend has served all it holds
		served := make([]int, n)
		rate := cfg.Load * capacity
		mu := -cfg.Sigma * cfg.Sigma / 2 // ln-mean for a mean size of 1
		waits = waits[:0]
		now := 0.0
		for k := range cfg.Requests {
			now += arrivals.ExpFloat64() / rate
			// Let every request that has been served by now leave. Each
			// backend's requests leave in order; across backends the order
			// does not matter, since a balancer's counts and averages are
			// kept per backend.
			for i := range n {
				q := queues[i]
				for heads[i] < len(q) && q[heads[i]].at <= now {
					d := q[heads[i]]
					heads[i]++
					active[i]--
					rt.done(i, d.owner, d.service)
				}
			}
			i, owner := rt.route(now, active, choices)
			if i < 0 || i >= n {
				return Result{}, &BadPickError{Request: k, Backend: i, N: n}
			}
			service := math.Exp(mu+cfg.Sigma*sizes.NormFloat64()) / speed[i]
			start := max(now, free[i])
			free[i] = start + service
			if heads[i] == len(queues[i]) {
				queues[i], heads[i] = queues[i][:0], 0 // reuse the memory
			}
			queues[i] = append(queues[i], departure{at: free[i], service: service, owner: owner})
			active[i]++
			if k >= cfg.Warmup {
				waits = append(waits, start-now)
				served[i]++
			}
		}
		sum := 0.0
		for _, w := range waits {
			sum += w
		}
		res.Mean += sum / float64(len(waits))
		res.P99 += Percentile(waits, 0.99)
		for i := range n {
			res.Share[i] += float64(served[i]) / float64(len(waits))
		}
	}
	runs := float64(cfg.Runs)
	res.Mean /= runs
	res.P99 /= runs
	for i := range res.Share {
		res.Share[i] /= runs
	}
	return res, nil
}

func (cfg Config) check() error {
	switch {
	case cfg.Backends < 1:
		return errors.New("need at least one backend")
	case cfg.Speed != nil && len(cfg.Speed) != cfg.Backends:
		return errors.New("need one speed per backend")
	case !(cfg.Load > 0):
		return errors.New("load must be positive")
	case cfg.Sigma < 0:
		return errors.New("sigma must not be negative")
	case cfg.Runs < 1 || cfg.Warmup < 0 || cfg.Requests <= cfg.Warmup:
		return errors.New("need at least one run and more requests than the warm-up")
	}
	for _, s := range cfg.Speed {
		if !(s > 0) {
			return errors.New("speeds must be positive")
		}
	}
	return nil
}

// Percentile returns the q-quantile of xs (0 < q < 1) as the value below
// which a share q of the values lie: the element at index ceil(q*n)-1 of
// the sorted values. It reorders xs.
func Percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	k := int(math.Ceil(q*float64(len(xs)))) - 1
	k = min(max(k, 0), len(xs)-1)
	return nth(xs, k)
}

// nth returns the k-th smallest element of xs, reordering xs
// (quickselect with a middle pivot and three-way partitioning, which
// copes with the many waits that are exactly zero).
func nth(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)
	for hi-lo > 1 {
		p := xs[lo+(hi-lo)/2]
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch {
			case xs[i] < p:
				xs[lt], xs[i] = xs[i], xs[lt]
				lt++
				i++
			case xs[i] > p:
				gt--
				xs[gt], xs[i] = xs[i], xs[gt]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return p
		}
	}
	return xs[lo]
}

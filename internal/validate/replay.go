package validate

import (
	"context"
	"errors"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/harness"
)

// replayTimeout bounds one replay: a build and the reference on every
// trace, which takes a second or two; a reference that loops forever is
// the checker's to report.
const replayTimeout = 2 * time.Minute

// replayed is what the reference did on one trace.
type replayed struct {
	Name  string       `json:"name"`
	Init  string       `json:"init"` // the observation right after New
	Steps []replayStep `json:"steps"`
	// Panic is set when the reference panicked, at Step (1-based; 0 is
	// New, -1 the random trace's generator).
	Panic string `json:"panic,omitempty"`
	Step  int    `json:"step"`
	// Index and Trace identify a random trace.
	Index int            `json:"index"`
	Trace *harness.Trace `json:"trace,omitempty"`
}

type replayStep struct {
	Ret string `json:"ret"`
	Obs string `json:"obs"`
}

// replayOut is the replay program's answer. Driver is false when the
// exercise's driver is not a harness.Traces (a quiz).
type replayOut struct {
	Driver bool       `json:"driver"`
	Traces []replayed `json:"traces"`
	Random []replayed `json:"random"`
}

// replayRequest is what the replay program reads.
type replayRequest struct {
	Traces []harness.Test `json:"traces"`
	Random []harness.Test `json:"random"`
	Seed   uint64         `json:"seed"`
}

// noReplay is why the reference could not be replayed: a driver that does
// not call harness.Main, or one that does not build or run with the
// reference (the checks say more about that).
type noReplay struct{ why string }

func (e *noReplay) Error() string { return "no replay: " + e.why }

// replay runs the reference as if it were a learner's program, on the
// requested traces and on every random trace the judge makes, and
// records what it did at each step; what an earlier validation recorded
// of the same, when nothing it depends on changed (see session).
func (v *validator) replay(ctx context.Context, e *exCode, req replayRequest) (*replayOut, error) {
	if !e.traces {
		return &replayOut{}, nil
	}
	ck := v.opts.checker()
	return session(ctx, ck, &v.tally, e.ex, e.solution, "replay", req, func() (*replayOut, error) {
		return replayFresh(ctx, ck, e, req)
	})
}

// replayFresh does replay's work.
func replayFresh(ctx context.Context, ck *checker.Checker, e *exCode, req replayRequest) (*replayOut, error) {
	ctx, cancel := context.WithTimeout(ctx, replayTimeout)
	defer cancel()
	var gens []harness.Generated
	if len(req.Random) > 0 {
		var err error
		if gens, err = ck.RandomTraces(ctx, e.ex, req.Seed); err != nil {
			if ctx.Err() != nil && ctx.Err() != context.DeadlineExceeded {
				return nil, ctx.Err()
			}
			var je *checker.JudgeError
			if errors.As(err, &je) {
				return nil, &noReplay{je.Detail}
			}
			return nil, &noReplay{err.Error()}
		}
	}
	s, p, err := ck.Serve(ctx, e.ex, e.solution)
	if err != nil {
		return nil, err
	}
	if p != nil {
		return nil, &noReplay{p.Detail}
	}
	defer s.Close()

	out := &replayOut{Driver: true}
	record := func(name string, tr harness.Trace, r harness.Reply) replayed {
		rep := replayed{Name: name}
		for i, res := range r.Results {
			if i == 0 {
				rep.Init = res.Obs
				continue
			}
			rep.Steps = append(rep.Steps, replayStep{Ret: res.Ret, Obs: res.Obs})
		}
		if r.Panicked {
			rep.Panic, rep.Step = r.Panic, r.PanicStep
		}
		return rep
	}
	for _, t := range req.Traces {
		tr := harness.Trace{New: t.New, Steps: t.Steps}
		err := s.Run([]harness.Trace{tr}, func(_ int, r harness.Reply) bool {
			out.Traces = append(out.Traces, record(t.Name, tr, r))
			return false
		})
		if err != nil {
			return nil, &noReplay{err.Error()} // an endless loop or a crash: the check reports it
		}
	}
	byTest := map[string][]harness.Generated{}
	for _, g := range gens {
		byTest[g.Test] = append(byTest[g.Test], g)
	}
	for _, t := range req.Random {
		var trs []harness.Trace
		var idx []int
		for _, g := range byTest[t.Name] {
			if g.Trace == nil {
				out.Random = append(out.Random, replayed{Name: t.Name, Index: g.Index, Panic: g.Panic, Step: -1})
				break
			}
			trs, idx = append(trs, *g.Trace), append(idx, g.Index)
		}
		err := s.Run(trs, func(i int, r harness.Reply) bool {
			if !r.Panicked {
				return false
			}
			rep := record(t.Name, trs[i], r)
			rep.Index, rep.Trace = idx[i], &trs[i]
			out.Random = append(out.Random, rep)
			return true
		})
		if err != nil {
			return nil, &noReplay{err.Error()}
		}
	}
	return out, nil
}

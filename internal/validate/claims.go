package validate

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
)

// ClaimsFile is the file of a misconception's folder that holds the traces
// its explanation talks about, with the values the text claims: what the
// misconception's code answers at each step and what the reference
// answers. kurs validate replays each trace on both and reports every
// value that is not what the code does, so that an explanation cannot
// claim an effect its code does not have.
const ClaimsFile = "trace.json"

// claims is a misconception's trace.json; docs/schema/trace.schema.json
// publishes it.
type claims struct {
	Schema string       `json:"$schema,omitempty"`
	Traces []claimTrace `json:"traces"`
}

// claimTrace is one trace an explanation talks about: New's arguments and
// the calls after it.
type claimTrace struct {
	New   []float64   `json:"new"`
	Steps []claimStep `json:"steps"`
}

// claimStep is one call and what the text claims about it: Got for the
// misconception's code, Want for the reference. Only the values given are
// compared.
type claimStep struct {
	Call string      `json:"call"`
	Args []float64   `json:"args,omitempty"`
	Got  *claimValue `json:"got,omitempty"`
	Want *claimValue `json:"want,omitempty"`
}

// claimValue is what a call returned and what was observed after it.
type claimValue struct {
	Ret *string `json:"ret,omitempty"`
	Obs *string `json:"obs,omitempty"`
}

// claimRun is one misconception's claimed traces, read, with what the
// two programs did on them.
type claimRun struct {
	e    *exCode
	m    *course.Misconception
	file string
	c    claims
	trs  []harness.Trace
	// got and want are the replies of the misconception's code and of
	// the reference, one per trace.
	got, want []harness.Reply
	err       error
	// ref is the reference's run of e, which answers the traces of
	// every misconception of e at once, r's from index at.
	ref *refClaims
	at  int
}

// refClaims is the reference of one exercise on the claimed traces of
// all its misconceptions, in one session.
type refClaims struct {
	e       *exCode
	trs     []harness.Trace
	replies []harness.Reply
	err     error
}

// claims replays the traces of every misconception that has a trace.json
// on its code and on the reference, Options.Jobs at a time, and reports
// each claimed value that differs from what the code does, at its line.
func (v *validator) claims(ctx context.Context, ms map[*exCode][]*course.Misconception) error {
	var runs []*claimRun
	var refs []*refClaims
	for _, e := range slices.SortedFunc(maps.Keys(ms), func(a, b *exCode) int { return strings.Compare(a.ex.ID, b.ex.ID) }) {
		if !e.traces {
			continue
		}
		var ref *refClaims
		for _, m := range ms[e] {
			file := path.Join(e.dir(), course.MisconceptionsDir, m.ID, ClaimsFile)
			if _, err := fs.Stat(v.fsys, file); err != nil {
				continue
			}
			r := &claimRun{e: e, m: m, file: file}
			if !v.readJSON(file, &r.c) {
				continue
			}
			for _, t := range r.c.Traces {
				tr := harness.Trace{New: t.New}
				for _, s := range t.Steps {
					tr.Steps = append(tr.Steps, harness.Step{Call: s.Call, Args: s.Args})
				}
				r.trs = append(r.trs, tr)
			}
			if ref == nil {
				ref = &refClaims{e: e}
				refs = append(refs, ref)
			}
			r.ref, r.at = ref, len(ref.trs)
			ref.trs = append(ref.trs, r.trs...)
			runs = append(runs, r)
		}
	}
	// Each misconception's code in a session of its own, the reference
	// once per exercise.
	var jobs []func()
	for _, r := range runs {
		jobs = append(jobs, func() { r.got, r.err = v.replayFiles(ctx, r.e, r.m.Files, r.trs) })
	}
	for _, ref := range refs {
		jobs = append(jobs, func() { ref.replies, ref.err = v.replayFiles(ctx, ref.e, ref.e.solution, ref.trs) })
	}
	each(ctx, v.opts.jobs(), jobs, func(f func()) { f() })
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, r := range runs {
		if r.err == nil {
			r.err = r.ref.err
		}
		if r.err != nil {
			v.add(r.file, 1, MisconceptionError, "Name", r.m.ID).Detail = r.err.Error()
			continue
		}
		r.want = r.ref.replies[r.at : r.at+len(r.trs)]
		v.checkClaims(r)
	}
	return nil
}

// checkClaims compares what r's traces claim with what the code did.
func (v *validator) checkClaims(r *claimRun) {
	for i, t := range r.c.Traces {
		differs := false
		for j, s := range t.Steps {
			at := fmt.Sprintf("traces.%d.steps.%d", i, j)
			got, gok := stepResult(r.got[i], j+1)
			want, wok := stepResult(r.want[i], j+1)
			if gok != wok || gok && !(harness.SameValue(got.Ret, want.Ret) && harness.SameValue(got.Obs, want.Obs)) {
				differs = true
			}
			v.claim(r, at+".got", "code", j+1, s, s.Got, got, gok, r.got[i])
			v.claim(r, at+".want", "reference", j+1, s, s.Want, want, wok, r.want[i])
		}
		if !differs {
			v.add(r.file, v.at(r.file, fmt.Sprintf("traces.%d", i)), MisconceptionClaimSame, "Name", r.m.ID, "Trace", i+1)
		}
	}
}

// claim reports each value of claim that res, what who's program did at
// step n, does not have; ok is false when the program did not get there.
func (v *validator) claim(r *claimRun, key, who string, n int, s claimStep, claim *claimValue, res harness.Result, ok bool, rep harness.Reply) {
	if claim == nil {
		return
	}
	for _, val := range []struct {
		field   string
		claimed *string
		actual  string
	}{{"ret", claim.Ret, res.Ret}, {"obs", claim.Obs, res.Obs}} {
		if val.claimed == nil || ok && harness.SameValue(*val.claimed, val.actual) {
			continue
		}
		actual := val.actual
		if !ok {
			actual = "—"
			if rep.Panicked {
				actual = "panic: " + rep.Panic
			}
		}
		v.add(r.file, v.at(r.file, key+"."+val.field), MisconceptionClaim,
			"Name", r.m.ID, "Who", who, "Field", val.field, "Step", n, "Call", harness.FormatCall(s.Call, s.Args),
			"Claimed", *val.claimed, "Actual", actual)
	}
}

// stepResult returns what step n (1-based) of a reply returned and
// showed, and false when the program did not get that far.
func stepResult(r harness.Reply, n int) (harness.Result, bool) {
	if n >= len(r.Results) || r.Panicked && r.PanicStep <= n {
		return harness.Result{}, false
	}
	return r.Results[n], true
}

// replayFiles runs traces on the exercise's test program built with files
// as its package and returns the reply to each; those an earlier
// validation had, when nothing they depend on changed (see session).
func (v *validator) replayFiles(ctx context.Context, e *exCode, files []course.File, trs []harness.Trace) ([]harness.Reply, error) {
	ck := v.opts.checker()
	return session(ctx, ck, &v.tally, e.ex, files, "traces", trs, func() ([]harness.Reply, error) {
		return replayFilesFresh(ctx, ck, e, files, trs)
	})
}

// replayFilesFresh does replayFiles's work.
func replayFilesFresh(ctx context.Context, ck *checker.Checker, e *exCode, files []course.File, trs []harness.Trace) ([]harness.Reply, error) {
	ctx, cancel := context.WithTimeout(ctx, replayTimeout)
	defer cancel()
	s, p, err := ck.Serve(ctx, e.ex, files)
	if err != nil {
		return nil, err
	}
	if p != nil {
		return nil, &noReplay{p.Detail}
	}
	defer s.Close()
	out := make([]harness.Reply, len(trs))
	for i, tr := range trs {
		err := s.Run([]harness.Trace{tr}, func(_ int, r harness.Reply) bool {
			out[i] = r
			return false
		})
		if err != nil {
			return nil, &noReplay{err.Error()}
		}
	}
	return out, nil
}

package validate

import (
	"context"
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
)

// Kinds of problems with misconceptions (see course.Misconception).
const (
	MisconceptionUncaught    Kind = "misconception_uncaught"     // passes every hidden test, at its folder
	MisconceptionNotCaughtBy Kind = "misconception_not_caught"   // passes a test its caught_by names
	MisconceptionUnknownTest Kind = "misconception_unknown_test" // caught_by names no hidden test
	MisconceptionSame        Kind = "misconception_same"         // behaves as another misconception does
	MisconceptionError       Kind = "misconception_error"        // does not compile, or is refused
	MisconceptionName        Kind = course.ErrMisconceptionName  // a folder name that is no id
	MisconceptionCode        Kind = course.ErrMisconceptionCode  // a folder without Go files
	MisconceptionInQuiz      Kind = "misconception_in_quiz"      // a quiz has no code to be wrong
	// A value a misconception's trace.json (see ClaimsFile) claims that
	// its code, or the reference, does not give, at the value; a claimed
	// trace on which the two do the same, at the trace.
	MisconceptionClaim     Kind = "misconception_claim"
	MisconceptionClaimSame Kind = "misconception_claim_same"
	// A hidden test that no mutant and no misconception fails, at its
	// entry in suite.json (with --mutants only).
	TestRedundant Kind = "test_redundant"

	// Warnings: kurs validate lists them but still accepts the course.
	SignaturesStale Kind = "signatures_stale" // signatures.json missing or out of date
	EdgeUnexplained Kind = "edge_unexplained" // edge tests no misconception fails; Args: Count
)

// SignatureFile is an exercise's signatures.json as kurs validate
// --signatures writes it.
type SignatureFile struct {
	Path string // relative to the course's root
	Data []byte
}

// misconceptions checks every misconception against the hidden tests of
// its exercise, Options.Jobs at a time, and reports what is wrong with
// them. It returns the signatures.json of each exercise whose
// misconceptions all ran.
func (v *validator) misconceptions(ctx context.Context, c *course.Course, codes map[string]*exCode) ([]SignatureFile, error) {
	ck := *v.opts.checker()
	if ck.Timeout == 0 || ck.Timeout > mutantTimeout {
		ck.Timeout = mutantTimeout // a misconception that loops is caught by being killed
	}
	type run struct {
		e   *exCode
		m   *course.Misconception
		res *checker.Result
		err error
	}
	var runs []*run
	var exercises []*exCode
	claimed := map[*exCode][]*course.Misconception{}
	for _, ex := range c.Exercises {
		e := codes[ex.ID]
		list, err := ex.Misconceptions()
		v.misconceptionErrors(err)
		if ex.Traits().Data {
			for _, m := range list {
				v.add(path.Join("exercises", ex.ID, course.MisconceptionsDir, m.ID), 0, MisconceptionInQuiz, "Name", m.ID)
			}
			continue
		}
		if e == nil {
			continue
		}
		// What a text claims the code does on its traces needs only a
		// reference that runs, not the hidden tests: the author sees
		// those problems along with the reference's own.
		if len(list) > 0 && (e.refPassed || e.replayed) {
			claimed[e] = list
		}
		if !e.refPassed {
			// Which hidden tests catch a misconception says nothing
			// while the reference fails them, and nor does its
			// signature: those checks wait, and the report says so.
			if len(list) > 0 {
				v.unchecked = append(v.unchecked, ex.ID)
			}
			continue
		}
		exercises = append(exercises, e)
		for _, m := range list {
			runs = append(runs, &run{e: e, m: m})
		}
	}
	var of []*exCode
	for _, r := range runs {
		of = append(of, r.e)
	}
	progress := v.track(PhaseMisconceptions, of)
	// Round k holds the k-th misconception of every exercise, checked in
	// one build; each exercise still runs alone, under its own limits.
	var rounds [][]*run
	nth := map[*exCode]int{}
	for _, r := range runs {
		k := nth[r.e]
		nth[r.e]++
		if k == len(rounds) {
			rounds = append(rounds, nil)
		}
		rounds[k] = append(rounds[k], r)
	}
	each(ctx, v.opts.jobs(), rounds, func(round []*run) {
		subs := make([]submission, len(round))
		for i, r := range round {
			subs[i] = submission{ex: r.e.checked(), files: r.m.Files}
		}
		results, err := checkAll(ctx, &ck, &v.tally, subs)
		for i, r := range round {
			if err == nil {
				r.res = results[i]
			}
			r.err = err
			progress.ran(r.e)
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := v.claims(ctx, claimed); err != nil {
		return nil, err
	}
	var files []SignatureFile
	for _, e := range exercises {
		sigs := map[string]course.Signature{}
		complete := true
		var ids []string
		for _, r := range runs {
			if r.e != e {
				continue
			}
			if r.err != nil {
				return nil, r.err
			}
			dir := path.Join(e.dir(), course.MisconceptionsDir, r.m.ID)
			switch r.res.Status {
			case checker.Error:
				file, line, detail := v.locate(e, path.Join(course.MisconceptionsDir, r.m.ID), r.m.Files, r.res.Problem)
				v.add(file, line, MisconceptionError, "Name", r.m.ID).Detail = detail
				complete = false
				continue
			case checker.Pass:
				v.add(dir, 0, MisconceptionUncaught, "Name", r.m.ID, "Dir", dir)
				complete = false
				continue
			}
			sig := explain.Signature(e.ex, r.res)
			v.caughtBy(e, r.m, sig)
			v.noteFails(e, sig)
			for _, id := range ids {
				if other := sigs[id]; other.Equal(sig) {
					v.add(dir, 0, MisconceptionSame, "Name", r.m.ID, "Other", id)
				}
			}
			sigs[r.m.ID] = *sig
			ids = append(ids, r.m.ID)
		}
		v.edgeUnexplained(e, sigs)
		if len(ids) == 0 || !complete {
			continue
		}
		hash, err := e.ex.BehaviourHash()
		if err != nil {
			continue // the loader or the reference's check has said why
		}
		want := &course.Signatures{Schema: "../../../docs/schema/signatures.schema.json", Hash: hash, Misconceptions: sigs}
		file := path.Join(e.dir(), course.MisconceptionsDir, course.SignaturesFile)
		rec, err := e.ex.RecordedSignatures()
		if err != nil {
			v.misconceptionErrors(err)
		}
		if rec == nil || rec.Hash != hash || !sameSignatures(rec.Misconceptions, sigs) {
			v.warn(file, 0, SignaturesStale, "Exercise", e.ex.ID)
		}
		data, err := course.MarshalSignatures(want)
		if err != nil {
			return nil, err
		}
		files = append(files, SignatureFile{Path: file, Data: data})
	}
	return files, nil
}

// caughtBy reports the tests a misconception's caught_by names that do
// not exist or that it passes.
func (v *validator) caughtBy(e *exCode, m *course.Misconception, sig *course.Signature) {
	file := path.Join(e.dir(), course.MisconceptionsDir, m.ID, "misconception.json")
	for i, name := range m.CaughtBy {
		line := v.lineIn(file, "caught_by", i)
		switch {
		case !slices.ContainsFunc(e.ex.Suite.Tests, func(t harness.Test) bool { return t.Name == name }):
			v.add(file, line, MisconceptionUnknownTest, "Name", m.ID, "Test", name)
		case explain.StressTests(e.ex)[name]:
			// Which stress test fails depends on scheduling: the
			// signature says only whether one did.
			if !sig.Stress {
				v.add(file, line, MisconceptionNotCaughtBy, "Name", m.ID, "Test", name)
			}
		case !slices.Contains(sig.Fail, name):
			v.add(file, line, MisconceptionNotCaughtBy, "Name", m.ID, "Test", name)
		}
	}
}

// lineIn returns the line of item i of key in a JSON file, reading the
// file's positions first.
func (v *validator) lineIn(file, key string, i int) int {
	if _, ok := v.json[file]; !ok {
		v.scanJSON(file)
	}
	return v.at(file, key+"."+strconv.Itoa(i))
}

// edgeUnexplained warns, with a count, of the edge tests of an exercise
// that no misconception fails: a test written for a mistake that nobody
// has named.
func (v *validator) edgeUnexplained(e *exCode, sigs map[string]course.Signature) {
	var names []string
	for _, t := range e.ex.Suite.Tests {
		if !strings.HasPrefix(t.Name, "edge/") {
			continue
		}
		explained := false
		for _, s := range sigs {
			if slices.Contains(s.Fail, t.Name) {
				explained = true
			}
		}
		if !explained {
			names = append(names, t.Name)
		}
	}
	if len(names) > 0 {
		file := path.Join(e.dir(), "testdata", "suite.json")
		v.warn(file, 0, EdgeUnexplained, "Count", len(names), "Exercise", e.ex.ID).Detail = strings.Join(names, "\n")
	}
}

// misconceptionErrors reports what the loader refused in misconceptions.
func (v *validator) misconceptionErrors(err error) {
	if err == nil {
		return
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, err := range errs {
		var ce *course.Error
		if errors.As(err, &ce) {
			v.add(ce.File, ce.Line, Kind(ce.Code), ce.Args...)
			continue
		}
		v.add("", 0, Load, "Err", err.Error())
	}
}

func sameSignatures(a, b map[string]course.Signature) bool {
	if len(a) != len(b) {
		return false
	}
	for id, s := range a {
		o, ok := b[id]
		if !ok || !s.Equal(&o) {
			return false
		}
	}
	return true
}

// warn records a warning: something to improve that does not make the
// course wrong.
func (v *validator) warn(file string, line int, kind Kind, args ...any) *Problem {
	v.warnings = append(v.warnings, Problem{File: file, Line: line, Kind: kind, Args: args})
	return &v.warnings[len(v.warnings)-1]
}

// noteFails remembers the tests a misconception of e fails, the stress
// tests included when one of them failed, for redundantTests.
func (v *validator) noteFails(e *exCode, sig *course.Signature) {
	if v.miscFails == nil {
		v.miscFails = map[string]map[string]bool{}
	}
	fails := v.miscFails[e.ex.ID]
	if fails == nil {
		fails = map[string]bool{}
		v.miscFails[e.ex.ID] = fails
	}
	for _, n := range sig.Fail {
		fails[n] = true
	}
	if sig.Stress {
		for n := range explain.StressTests(e.ex) {
			fails[n] = true
		}
	}
}

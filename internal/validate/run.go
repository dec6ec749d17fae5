package validate

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
)

// job is one build-and-run: a check of the reference or a skeleton, or a
// replay of the reference on its traces.
type job struct {
	e    *exCode
	kind string // "reference", "skeleton" or "replay"
	lang string
	res  *checker.Result
	rep  *replayOut
	err  error
}

// run checks every exercise's reference and skeletons and replays its
// traces, Options.Jobs at a time, then reports what went wrong. It
// returns the replays by exercise id, for the lesson tables.
//
// The replays and skeletons go first: a trace the reference cannot run
// would crash the reference's check (the harness does not guard the
// reference), so the reference is checked without such traces, which are
// reported on their own.
func (v *validator) run(ctx context.Context, c *course.Course, codes map[string]*exCode) (map[string]*replayOut, error) {
	var first, second []*job
	for _, ex := range c.Exercises {
		e := codes[ex.ID]
		if e.solution == nil || !e.parsed || e.stale {
			continue
		}
		second = append(second, &job{e: e, kind: "reference"})
		for _, lang := range course.Languages {
			if _, err := ex.Skeleton(lang); err == nil {
				first = append(first, &job{e: e, kind: "skeleton", lang: lang})
			}
		}
		if e.traces {
			first = append(first, &job{e: e, kind: "replay"})
		}
	}
	var all []*exCode
	for _, j := range slices.Concat(first, second) {
		all = append(all, j.e)
	}
	progress := v.track(PhaseChecks, all)
	ck := v.opts.checker()
	seed := ck.Seed
	if seed == 0 {
		seed = checker.DefaultSeed
	}
	do := func(j *job) {
		defer progress.ran(j.e)
		switch j.kind {
		case "reference":
			j.res, j.err = checkFiles(ctx, ck, j.e.checked(), j.e.solution)
		case "skeleton":
			files, _ := j.e.ex.Skeleton(j.lang)
			j.res, j.err = checkFiles(ctx, ck, j.e.ex, files)
		case "replay":
			req := replayRequest{Seed: seed}
			for _, t := range j.e.ex.Suite.Tests {
				switch {
				case t.Random > 0:
					req.Random = append(req.Random, t)
				case len(t.Steps) > 0 && !j.e.unrunnable[t.Name]:
					req.Traces = append(req.Traces, t)
				}
			}
			j.rep, j.err = v.replay(ctx, j.e, req)
			var no *noReplay
			if errors.As(j.err, &no) {
				j.e.noReplay, j.err = no.why, nil
			}
		}
	}
	each(ctx, v.opts.jobs(), first, do)
	replays := map[string]*replayOut{}
	for _, j := range first {
		if j.err != nil {
			return nil, j.err
		}
		if j.kind == "replay" && j.rep != nil {
			replays[j.e.ex.ID] = j.rep
			for name := range v.panics(j.e, j.rep, seed) {
				j.e.unrunnable[name] = true
			}
		}
	}
	// A reference with no trace left to run has nothing to be checked on.
	second = slices.DeleteFunc(second, func(j *job) bool {
		if len(j.e.checked().Suite.Tests) == 0 {
			progress.ran(j.e)
			return true
		}
		return false
	})
	each(ctx, v.opts.jobs(), second, do)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, j := range slices.Concat(first, second) {
		if j.err != nil {
			return nil, j.err
		}
		switch j.kind {
		case "reference":
			v.referenceResult(j.e, j.res)
		case "skeleton":
			v.skeletonResult(j.e, j.lang, j.res)
		}
	}
	return replays, nil
}

// checked returns the exercise as the reference is checked: without the
// traces it cannot run, and allowing the imports it should not have (both
// are reported on their own).
func (e *exCode) checked() *course.Exercise {
	if len(e.unrunnable) == 0 && len(e.extraImports) == 0 {
		return e.ex
	}
	ex := *e.ex
	ex.Imports = slices.Concat(e.ex.Imports, e.extraImports)
	ex.Suite.Tests = nil
	for _, t := range e.ex.Suite.Tests {
		if !e.unrunnable[t.Name] {
			ex.Suite.Tests = append(ex.Suite.Tests, t)
		}
	}
	return &ex
}

// each runs f on every item, n at a time, and waits for all.
func each[T any](ctx context.Context, n int, items []T, f func(T)) {
	sem := make(chan struct{}, max(n, 1))
	var wg sync.WaitGroup
	for _, it := range items {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			f(it)
		}()
	}
	wg.Wait()
}

// checkFiles checks files as a learner's submission of ex.
func checkFiles(ctx context.Context, ck *checker.Checker, ex *course.Exercise, files []course.File) (*checker.Result, error) {
	tmp, err := os.MkdirTemp(ck.TempDir, "kurs-validate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, ex.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return nil, err
		}
	}
	return ck.Check(ctx, ex, dir)
}

// testLine returns the line in suite.json of the test called name.
func (v *validator) testLine(e *exCode, name string) (string, int) {
	file := path.Join(e.dir(), "testdata", "suite.json")
	for i, t := range e.ex.Suite.Tests {
		if t.Name == name {
			return file, v.at(file, "tests."+strconv.Itoa(i))
		}
	}
	return file, v.at(file, "tests")
}

// panics reports the traces the reference cannot run and returns their
// test names.
func (v *validator) panics(e *exCode, rep *replayOut, seed uint64) map[string]bool {
	names := map[string]bool{}
	for _, r := range rep.Traces {
		if r.Panic == "" {
			continue
		}
		names[r.Name] = true
		file, line := v.testLine(e, r.Name)
		call := "New"
		for _, t := range e.ex.Suite.Tests {
			if t.Name == r.Name && r.Step > 0 && r.Step <= len(t.Steps) {
				s := t.Steps[r.Step-1]
				call = harness.FormatCall(s.Call, s.Args)
			}
		}
		v.add(file, line, TracePanics, "Test", r.Name, "Step", r.Step, "Call", call).Detail = r.Panic
	}
	for _, r := range rep.Random {
		names[r.Name] = true
		file, line := v.testLine(e, r.Name)
		detail := r.Panic
		if r.Trace != nil {
			var b strings.Builder
			fmt.Fprintf(&b, "%s\n", harness.FormatCall("New", r.Trace.New))
			for i, s := range r.Trace.Steps[:min(max(r.Step, 0), len(r.Trace.Steps))] {
				fmt.Fprintf(&b, "%3d  %s\n", i+1, harness.FormatCall(s.Call, s.Args))
			}
			detail = b.String() + "panic: " + r.Panic
		}
		v.add(file, line, RandomPanics, "Test", r.Name, "Index", r.Index+1, "Seed", seed, "Step", r.Step).Detail = detail
	}
	return names
}

// referenceResult reports what the reference's check found: hidden tests it
// fails, or why it could not be tested.
func (v *validator) referenceResult(e *exCode, res *checker.Result) {
	switch res.Status {
	case checker.Pass:
		e.refPassed = true
		return
	case checker.Error:
		file, line, detail := v.locate(e, "solution", e.solution, res.Problem)
		p := v.add(file, line, RefError)
		p.Detail, p.Failure = detail, &Failure{Exercise: e.ex, Result: res}
		return
	}
	for i := range res.Tests {
		t := &res.Tests[i]
		if t.Status == checker.Pass {
			continue
		}
		file, line := v.failLine(e, t)
		step, call := -1, ""
		if f := t.Failure; f != nil && f.Kind != harness.Quiz {
			step, call = f.Step, f.Call
		}
		method, _, _ := strings.Cut(call, "(")
		if step == 0 || method == "" {
			method = "New"
		}
		args := []any{"Test", t.Name, "Solution", e.declaredAt(method), "Step", step, "Call", call}
		v.add(file, line, RefFails, args...).Failure = &Failure{Exercise: e.ex, Result: res, Test: t}
	}
}

// failLine returns where a test the reference fails is written: the step
// whose expectation the reference does not meet (or "new", when New
// already differs), else the test; a quiz's case is its answer in
// exercise.json, since a quiz has no suite.json.
func (v *validator) failLine(e *exCode, t *checker.Test) (string, int) {
	if e.ex.Kind() == course.KindQuiz {
		file := path.Join(e.dir(), "exercise.json")
		if f := t.Failure; f != nil && f.Case > 0 {
			return file, v.at(file, "answers."+strconv.Itoa(f.Case-1))
		}
		return file, v.at(file, "answers")
	}
	file, line := v.testLine(e, t.Name)
	f := t.Failure
	if f == nil || f.Seed != 0 || f.Index != 0 || f.Original != 0 {
		return file, line // a random trace is written nowhere
	}
	for i, st := range e.ex.Suite.Tests {
		if st.Name != t.Name || st.Random > 0 {
			continue
		}
		switch {
		case f.Step == 0:
			return file, v.at(file, fmt.Sprintf("tests.%d.new", i))
		case f.Step <= len(st.Steps):
			return file, v.at(file, fmt.Sprintf("tests.%d.steps.%d", i, f.Step-1))
		}
	}
	return file, line
}

// declaredAt names the reference's file and line that declare the function
// or method name ("New", "Allow"), as "exercises/ID/solution/FILE:LINE",
// so that an author finds the code a failing test runs; without such a
// declaration, the reference's first file.
func (e *exCode) declaredAt(name string) string {
	dir := path.Join(e.dir(), "solution")
	if len(e.solution) == 0 || e.ex.Kind() == course.KindQuiz {
		return dir + "/"
	}
	fset := token.NewFileSet()
	for _, f := range e.solution {
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
				return fmt.Sprintf("%s/%s:%d", dir, f.Name, fset.Position(fd.Pos()).Line)
			}
		}
	}
	return path.Join(dir, e.solution[0].Name)
}

// skeletonResult reports a skeleton that passes or does not compile.
func (v *validator) skeletonResult(e *exCode, lang string, res *checker.Result) {
	files, _ := e.ex.Skeleton(lang)
	switch res.Status {
	case checker.Pass:
		v.add(path.Join(e.dir(), "skeleton", lang, files[0].Name), 1, SkeletonPasses, "Lang", lang)
	case checker.Error:
		file, line, detail := v.locate(e, path.Join("skeleton", lang), files, res.Problem)
		p := v.add(file, line, SkeletonError, "Lang", lang)
		p.Detail, p.Failure = detail, &Failure{Exercise: e.ex, Result: res}
	}
}

// compilerPos finds "ID/file.go:LINE" in compiler output.
var compilerPos = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^([a-z][a-z0-9]*)/([^/:\s]+\.go):(\d+)`) })

// locate maps a checker Problem, which names the learner's files as
// ID/file.go, to the course's files under sub (solution or skeleton/LANG).
// Without a position it names the first of files, line 1.
func (v *validator) locate(e *exCode, sub string, files []course.File, p *checker.Problem) (file string, line int, detail string) {
	file, line = path.Join(e.dir(), sub)+"/", 0
	if len(files) > 0 {
		file, line = path.Join(e.dir(), sub, files[0].Name), 1
	}
	if p == nil {
		return file, line, ""
	}
	detail = strings.ReplaceAll(p.Detail, e.ex.ID+"/", path.Join(e.dir(), sub)+"/")
	if p.File != "" {
		return path.Join(e.dir(), sub, path.Base(p.File)), p.Line, detail
	}
	if m := compilerPos().FindStringSubmatch(p.Detail); m != nil && m[1] == e.ex.ID {
		n, _ := strconv.Atoi(m[3])
		return path.Join(e.dir(), sub, m[2]), n, detail
	}
	return file, line, detail
}

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
// traces, Options.Jobs builds at a time, then reports what went wrong. It
// returns the replays by exercise id, for the lesson tables.
//
// The skeletons of one language are checked together, in one build (as
// kurs grade checks a submission); so are the references. Each exercise
// still runs in a process of its own with its own limits, so one
// exercise's check gets the verdict it would get alone.
//
// The replays and skeletons go first: a trace the reference cannot run
// would crash the reference's check (the harness does not guard the
// reference), so the reference is checked without such traces, which are
// reported on their own.
func (v *validator) run(ctx context.Context, c *course.Course, codes map[string]*exCode) (map[string]*replayOut, error) {
	var references, replays []*job
	skeletons := map[string][]*job{}
	for _, ex := range c.Exercises {
		e := codes[ex.ID]
		if e.solution == nil || !e.parsed || e.stale {
			continue
		}
		references = append(references, &job{e: e, kind: "reference"})
		for _, lang := range course.Languages {
			if _, err := ex.Skeleton(lang); err == nil {
				skeletons[lang] = append(skeletons[lang], &job{e: e, kind: "skeleton", lang: lang})
			}
		}
		if e.traces {
			replays = append(replays, &job{e: e, kind: "replay"})
		}
	}
	// first holds the builds before the references': one per language's
	// skeletons, one per replay.
	var first [][]*job
	for _, lang := range course.Languages {
		if len(skeletons[lang]) > 0 {
			first = append(first, skeletons[lang])
		}
	}
	for _, j := range replays {
		first = append(first, []*job{j})
	}
	var all []*exCode
	for _, j := range slices.Concat(slices.Concat(first...), references) {
		all = append(all, j.e)
	}
	progress := v.track(PhaseChecks, all)
	ck := v.opts.checker()
	seed := ck.Seed
	if seed == 0 {
		seed = checker.DefaultSeed
	}
	do := func(group []*job) {
		defer func() {
			for _, j := range group {
				progress.ran(j.e)
			}
		}()
		if group[0].kind != "replay" {
			checkJobs(ctx, ck, &v.tally, group)
			return
		}
		j := group[0]
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
	each(ctx, v.opts.jobs(), first, do)
	out := map[string]*replayOut{}
	for _, j := range slices.Concat(first...) {
		if j.err != nil {
			return nil, j.err
		}
		if j.kind == "replay" && j.rep != nil {
			out[j.e.ex.ID] = j.rep
			j.e.replayed = true
			for name := range v.panics(j.e, j.rep, seed) {
				j.e.unrunnable[name] = true
			}
		}
	}
	// A reference with no trace left to run has nothing to be checked on.
	references = slices.DeleteFunc(references, func(j *job) bool {
		if len(j.e.checked().Suite.Tests) == 0 {
			progress.ran(j.e)
			return true
		}
		return false
	})
	if len(references) > 0 {
		do(references)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, j := range slices.Concat(slices.Concat(first...), references) {
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
	return out, nil
}

// checkJobs checks the reference or skeleton of each of jobs, which name
// each exercise once at most, in one build, and sets their res or err.
func checkJobs(ctx context.Context, ck *checker.Checker, t *tally, jobs []*job) {
	subs := make([]submission, len(jobs))
	for i, j := range jobs {
		subs[i] = submission{ex: j.e.ex, files: j.e.solution}
		if j.kind == "reference" {
			subs[i].ex = j.e.checked()
		} else {
			subs[i].files, _ = j.e.ex.Skeleton(j.lang)
		}
	}
	results, err := checkAll(ctx, ck, t, subs)
	for i, j := range jobs {
		if err != nil {
			j.err = err
			continue
		}
		j.res = results[i]
	}
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
func checkFiles(ctx context.Context, ck *checker.Checker, t *tally, ex *course.Exercise, files []course.File) (*checker.Result, error) {
	results, err := checkAll(ctx, ck, t, []submission{{ex: ex, files: files}})
	if err != nil {
		return nil, err
	}
	return results[0], nil
}

// submission is the files of one exercise, checked as a learner's.
type submission struct {
	ex    *course.Exercise
	files []course.File
}

// checkAll checks subs, which name each exercise once at most, as one
// learner's workspace, with one build (checker.CheckAll), and returns
// their results in the same order. It counts them in t.
func checkAll(ctx context.Context, ck *checker.Checker, t *tally, subs []submission) ([]*checker.Result, error) {
	t.runs.Add(int64(len(subs)))
	tmp, err := os.MkdirTemp(ck.TempDir, "kurs-validate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	jobs := make([]checker.Job, len(subs))
	for i, s := range subs {
		dir := filepath.Join(tmp, s.ex.ID)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		for _, f := range s.files {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				return nil, err
			}
		}
		jobs[i] = checker.Job{Exercise: s.ex, Dir: dir}
	}
	return ck.CheckAll(ctx, jobs)
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
	quiz := e.ex.Traits().Data
	if quiz && v.answersReported(e) {
		return // a quiz's reference is its answers, reported already
	}
	for i := range res.Tests {
		t := &res.Tests[i]
		if t.Status == checker.Pass {
			continue
		}
		file, line := v.failLine(e, t)
		if quiz {
			// A quiz has no solution/ to name: its answers are the
			// reference.
			v.add(file, line, QuizRefFails, "Test", t.Name).Failure = &Failure{Exercise: e.ex, Result: res, Test: t}
			continue
		}
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

// answersReported reports whether the answers of the quiz e are reported
// already as too few or not among a case's options, which is why its
// reference fails.
func (v *validator) answersReported(e *exCode) bool {
	file := path.Join(e.dir(), "exercise.json")
	return slices.ContainsFunc(v.problems, func(p Problem) bool {
		return p.File == file && (p.Kind == QuizAnswers || p.Kind == QuizAnswer)
	})
}

// failLine returns where a test the reference fails is written: the step
// whose expectation the reference does not meet (or "new", when New
// already differs), else the test; a quiz's case is its answer in
// exercise.json, since an exercise that is data has no suite.json.
func (v *validator) failLine(e *exCode, t *checker.Test) (string, int) {
	if e.ex.Traits().Data {
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
	if len(e.solution) == 0 || e.ex.Traits().Data {
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

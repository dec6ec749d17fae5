package checker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"golang.org/x/sync/errgroup"
)

// Job is one exercise to check: the exercise, and the folder of the
// learner's files of it, whose path relative to the workspace is
// Exercise.ID.
type Job struct {
	Exercise *course.Exercise
	Dir      string
}

// job is a Job on its way through CheckAll.
type job struct {
	Job
	files []source // the learner's files, once read
	judge string   // the judge's path, once built
	key   string   // names everything the result depends on (see resultKey)
	pkey  string   // names the same by the learner's program (see programKey)
	res   *Result
}

// CheckAll checks several exercises of one workspace. Each exercise's
// verdict comes from a program of its own, which holds that exercise's
// code alone with the harness and its test program, and runs beside its
// own judge with its own limits and output: one exercise's init, crash or
// endless loop touches no other exercise's verdict. The programs share
// what is safe to share: the compiled standard library, harness and
// support packages (the kit), the objects earlier builds kept, and the
// judges. The results come in the order of jobs; an error means kurs
// itself failed, or ctx ended.
func (c *Checker) CheckAll(ctx context.Context, jobs []Job) ([]*Result, error) {
	c, done, err := c.withBuild()
	if err != nil {
		return nil, err
	}
	defer done()
	all := make([]*job, len(jobs))
	for i, j := range jobs {
		all[i] = &job{Job: j}
	}
	if err := c.checkAll(ctx, all); err != nil {
		return nil, err
	}
	results := make([]*Result, len(all))
	for i, j := range all {
		results[i] = j.res
	}
	return results, nil
}

// checkAll does CheckAll's work: it sets every job's res.
func (c *Checker) checkAll(ctx context.Context, all []*job) (err error) {
	start := time.Now()
	todo, err := c.prepare(ctx, all)
	if err != nil {
		return err
	}
	defer func() {
		if err == nil {
			for _, j := range todo {
				c.remember(j)
			}
		}
	}()
	if len(todo) == 0 {
		// Every result was kept or refused before a build: no folder to
		// make for nothing to build (a new inode costs a save's time).
		return c.runAll(ctx, "", start, 0, all, nil, nil, nil)
	}
	tmp, err := os.MkdirTemp(c.TempDir, "kurs-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	answers, programs := c.constants(todo)
	progs, err := c.buildEach(ctx, tmp, exercises(all), programs)
	if err != nil {
		return err
	}
	return c.runAll(ctx, tmp, start, 0, all, todo, progs, answers)
}

// prepare reads the sources of every job of all, refuses what the static
// checks refuse, builds the judges, and gives each job whose result an
// earlier check kept that result. It returns the jobs left to check.
func (c *Checker) prepare(ctx context.Context, all []*job) ([]*job, error) {
	var todo []*job // exercises left to build
	for _, j := range all {
		ex := j.Exercise
		j.res = &Result{Exercise: ex.ID, MaxScore: ex.Points, Seed: c.seed()}
		src, err := readSources(j.Dir, ex.ID)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w", j.Dir, err)
		}
		if p := inspect(ex.ID, src, ex.Imports); p != nil && !c.noDefences {
			j.res.Status, j.res.Problem = Error, p
			continue
		}
		j.files = src
		todo = append(todo, j)
	}
	for _, j := range todo {
		judge, err := c.judge(ctx, j.Exercise)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, err
		}
		j.judge = judge
	}
	// An exercise whose sources, course content, toolchain and limits are
	// those of an earlier check gets that check's result: nothing it
	// depends on changed.
	var fresh []*job
	for _, j := range todo {
		if c.Reuse {
			var err error
			if j.key, err = c.resultKey(j); err != nil {
				return nil, err
			}
			if res := c.recall(j, j.key, c.Build.Recall); res != nil {
				j.res = res
				continue
			}
		}
		fresh = append(fresh, j)
	}
	return fresh, nil
}

// constants splits jobs into quizzes whose answers are constants, which
// need no program (the checker gives the judge those answers itself, see
// constantAnswers), with their answers, and the jobs that need one.
func (c *Checker) constants(jobs []*job) (map[*job][]string, []*job) {
	answers := map[*job][]string{}
	var programs []*job
	for _, j := range jobs {
		if a, ok := constantAnswers(j.Exercise, j.files); ok && !c.noConstants {
			answers[j] = a
			continue
		}
		programs = append(programs, j)
	}
	return answers, programs
}

// runAll runs the jobs todo of all, the rest of a check that began at
// start: each job with its program of progs or its answers, unless the
// same program judged alike gave a kept result. built is how long the
// programs took to build beyond the time since start, when they were
// built with other checks' (see CheckBatch): its share of it is the
// check's.
func (c *Checker) runAll(ctx context.Context, tmp string, start time.Time, built time.Duration, all, todo []*job, progs map[*job]*program, answers map[*job][]string) error {
	var ready []*job
	for _, j := range todo {
		if progs[j] != nil || answers[j] != nil {
			ready = append(ready, j)
		}
	}
	todo = ready
	if c.Reuse {
		// The same program, judged alike, gives the same result: an
		// edit of a comment or of the layout builds the program of the
		// earlier check, whose result stands. Where the race detector
		// runs, what of the sources only its build sees names the
		// result too (see raceSources).
		var run []*job
		for _, j := range todo {
			if p := progs[j]; p != nil && p.sum != "" {
				var err error
				if j.pkey, err = c.programKey(j, p.sum); err != nil {
					return err
				}
				if res := c.recall(j, j.pkey, c.Build.RecallProgram); res != nil {
					j.res = res
					continue
				}
			}
			run = append(run, j)
		}
		todo = run
	}
	for _, j := range todo {
		ex, res, p := j.Exercise, j.res, progs[j]
		run := time.Now()
		if a := answers[j]; a != nil {
			if err := c.runJudge(ctx, tmp, nil, a, j.judge, ex, res); err != nil {
				return err
			}
			res.Duration = time.Since(run)
			continue
		}
		prog := []string{p.path, p.name, "serve"}
		if ex.Concurrent {
			dir := filepath.Dir(p.path)
			if p.member != "" {
				// The member's own module, for the race detector's
				// build, in a folder of its own: the batch's folder holds
				// its package with the test program merged in.
				dir = filepath.Join(dir, "race-"+p.member)
			}
			race := func() (string, error) {
				// The race detector's build is the go command's, in the
				// whole module.
				if err := build.WriteModule(dir, p.mod); err != nil {
					return "", err
				}
				return c.Build.Race(ctx, dir, p.mod)
			}
			cold := func() bool { return c.Build.RaceCold(p.mod) }
			if err := c.concurrent(ctx, tmp, prog, race, cold, j.judge, ex, res); err != nil {
				return err
			}
		} else if err := c.run(ctx, tmp, prog, j.judge, ex, res); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if p.member != "" {
			unbatch(res, p.member)
		}
		res.Duration = time.Since(run)
	}
	// The shared build's time is spread over the exercises that had it,
	// so that durations add up to the submission's time.
	var ran time.Duration
	for _, j := range todo {
		ran += j.res.Duration
	}
	share := (time.Since(start) + built - ran) / time.Duration(max(len(all), 1))
	for _, j := range all {
		j.res.Duration += share
	}
	return nil
}

// resultKey returns a name for everything the result of j depends on: the
// module of its learner's program (the learner's files, the exercise's
// driver and API, the harness), its judge (named by the reference's
// content and the go command), its suite, the seed and the limits.
func (c *Checker) resultKey(j *job) (string, error) {
	mod, err := moduleFiles(j.Exercise, j.files, false)
	if err != nil {
		return "", err
	}
	suite, err := c.suiteFile(j.Exercise)
	if err != nil {
		return "", err
	}
	mod["\x00check"] = c.judged(j, suite)
	return c.Build.Key(mod)
}

// judged names how a job's program is judged: by which kurs, judge and
// suite, for how many points, with or without the race detector's run,
// with which seed and limits.
func (c *Checker) judged(j *job, suite string) []byte {
	return fmt.Appendf(nil, "result 4\nkurs %s\njudge %s\nsuite %s\npoints %d\nconcurrent %t\nseed %d\ntimeout %s\nmemory %d\noutput %d\nrace %t\ndefences %t\ndirect %t\n",
		build.Self(), filepath.Base(j.judge), filepath.Base(suite), j.Exercise.Points, j.Exercise.Concurrent, c.seed(), c.timeout(), c.memory(), c.outputCap(), raceSupported(), !c.noDefences, !c.noDirect)
}

// programKey returns a name for everything the result of j depends on
// once its learner's program is built: the program (sum is its hash), the
// exercise it runs, and how it is judged.
func (c *Checker) programKey(j *job, sum string) (string, error) {
	suite, err := c.suiteFile(j.Exercise)
	if err != nil {
		return "", err
	}
	key := map[string][]byte{
		"\x00program":  []byte(sum),
		"\x00exercise": []byte(j.Exercise.ID),
		"\x00check":    c.judged(j, suite),
	}
	if j.Exercise.Concurrent && raceSupported() {
		key["\x00race"] = raceSources(j.files)
	}
	return c.Build.Key(key)
}

// raceSources returns what of the learner's files a build with the race
// detector may see differently from the learner's program: a file whose
// build constraints name a tag "race" whole, and every other file's
// compiler directives with their lines (//go:norace and //go:nocheckptr
// act only there). With the same learner's program and the same
// raceSources, the race detector's build is the same program too.
func raceSources(files []source) []byte {
	var b bytes.Buffer
	for _, f := range files {
		fmt.Fprintf(&b, "file %s\n", f.Name)
		lines := bytes.Split(f.Data, []byte("\n"))
		whole := false
		for _, l := range lines {
			t := bytes.TrimSpace(l)
			if (bytes.HasPrefix(t, []byte("//go:build")) || bytes.HasPrefix(t, []byte("// +build"))) && bytes.Contains(t, []byte("race")) {
				whole = true
			}
		}
		if whole {
			b.Write(f.Data)
			continue
		}
		for i, l := range lines {
			if t := bytes.TrimSpace(l); bytes.HasPrefix(t, []byte("//go:")) || bytes.HasPrefix(t, []byte("//line")) {
				fmt.Fprintf(&b, "%d %s\n", i+1, t)
			}
		}
	}
	return b.Bytes()
}

// recall returns the result of an earlier check kept under key, or nil.
func (c *Checker) recall(j *job, key string, from func(string) ([]byte, bool)) *Result {
	if key == "" {
		return nil
	}
	data, ok := from(key)
	if !ok {
		return nil
	}
	var res Result
	if json.Unmarshal(data, &res) != nil || res.Exercise != j.Exercise.ID {
		return nil
	}
	res.Duration = 0
	if c.Reused != nil {
		c.Reused(j.Exercise)
	}
	return &res
}

// remember keeps j's result for a later check of the same key, if the
// same inputs always give it: a result that a busy machine may have
// brought about (a timeout, a build limit, a race build that failed) is
// not kept.
func (c *Checker) remember(j *job) {
	res := j.res
	if (j.key == "" && j.pkey == "") || res == nil || res.Killed {
		return
	}
	if p := res.Problem; p != nil && (p.Kind == ProblemTimeout || p.Kind == ProblemBuildLimit || p.Kind == ProblemInternal) {
		return
	}
	for _, t := range res.Tests {
		if t.Failure != nil && t.Failure.Kind == harness.Timeout {
			return
		}
	}
	if j.Exercise.Concurrent && res.Status == Pass && res.Concurrency != ConcurrencyRace && raceSupported() {
		return
	}
	kept := *res
	kept.Duration = 0
	if data, err := json.Marshal(&kept); err == nil {
		if j.key != "" {
			_ = c.Build.Remember(j.key, data)
		}
		if j.pkey != "" {
			_ = c.Build.RememberProgram(j.pkey, data)
		}
	}
}

// exercises returns the exercises of jobs.
func exercises(jobs []*job) []*course.Exercise {
	exs := make([]*course.Exercise, len(jobs))
	for i, j := range jobs {
		exs[i] = j.Exercise
	}
	return exs
}

// program is a learner's program of one exercise, built by buildEach or
// in a batch (see CheckBatch).
type program struct {
	path string
	name string // the first argument that runs the exercise's tests
	// member is the program's name of the exercise in a batch, or "".
	member string
	sum    string // its hash, or "" when not known
	// mod is the module it was built from, for the race detector's
	// build.
	mod map[string][]byte
}

// buildEach builds a learner's program for each job that holds its
// exercise's code alone, with the harness and the test program: Go
// initialises every package a program links, so an exercise's init, its
// package variables and the goroutines they start must run in no other
// exercise's program. The programs share everything else: the kit of exs
// (every exercise of the check), the objects that earlier builds kept,
// and the machine, building side by side. A job whose code does not
// build gets its Problem and no program.
func (c *Checker) buildEach(ctx context.Context, tmp string, exs []*course.Exercise, todo []*job) (map[*job]*program, error) {
	progs := make(map[*job]*program, len(todo))
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.NumCPU())
	for n, j := range todo {
		g.Go(func() error {
			mod, err := combinedModule([]*job{j})
			if err != nil {
				return err
			}
			dir := filepath.Join(tmp, "build-"+strconv.Itoa(n))
			if err := os.Mkdir(dir, 0o700); err != nil {
				return err
			}
			prog, sum, problem, err := c.buildLearner(gctx, dir, mod, exs, []*job{j})
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			if problem != nil {
				j.res.Status, j.res.Problem = Error, problem
				return nil
			}
			progs[j] = &program{path: prog, name: j.Exercise.ID, sum: sum, mod: mod}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return progs, nil
}

// combinedModule lays out one module with the learner's packages of the
// jobs, each test program as a package of its own under
// internal/run/ID with its main renamed Main, and a main that runs the
// one named by its first argument. A check lays it out for one job, so
// that the test program's and main's objects are those of every check of
// the exercise; the kit's probe, which runs no code, for all.
func combinedModule(jobs []*job) (map[string][]byte, error) {
	mod := map[string][]byte{}
	var ids []string
	for _, j := range jobs {
		ex := j.Exercise
		one, err := moduleFiles(ex, j.files, false)
		if err != nil {
			return nil, err
		}
		for name, data := range one {
			if rest, ok := strings.CutPrefix(name, "internal/run/"); ok {
				data, err = asPackage(rest, data)
				if err != nil {
					return nil, fmt.Errorf("exercise %s: %w", ex.ID, err)
				}
				name = path.Join("internal/run", ex.ID, rest)
			}
			mod[name] = data
		}
		ids = append(ids, ex.ID)
	}
	sort.Strings(ids)
	var b bytes.Buffer
	b.WriteString("// The learner's program of several exercises: the first argument names\n// the exercise whose test program runs.\npackage main\n\nimport (\n\t\"os\"\n\n")
	for k, id := range ids {
		fmt.Fprintf(&b, "\tr%d %q\n", k, module+"/internal/run/"+id)
	}
	b.WriteString(")\n\nfunc main() {\n\tif len(os.Args) < 2 {\n\t\tos.Exit(3)\n\t}\n\tid := os.Args[1]\n\tos.Args = append(os.Args[:1], os.Args[2:]...)\n\tswitch id {\n")
	for k, id := range ids {
		fmt.Fprintf(&b, "\tcase %q:\n\t\tr%d.Main()\n", id, k)
	}
	b.WriteString("\t}\n\tos.Exit(3)\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, err
	}
	mod["internal/run/main.go"] = src
	return mod, nil
}

// asPackage turns a test program's file (package main) into a file of
// package run whose main is Main.
//
// Main is never inlined: the body of an inlinable Main would be in the
// package's export data, and with it the bodies it inlines, down to the
// learner's constructor, so that a learner's edit of a body would change
// the export data that the program's main is compiled against. Without
// it, main is compiled once and linked again after such an edit.
func asPackage(name string, data []byte) ([]byte, error) {
	key := name + "\x00" + string(data)
	if out, ok := packages.Load(key); ok {
		return out.([]byte), nil
	}
	out, err := rewriteMain(name, data)
	if err == nil {
		packages.Store(key, out)
	}
	return out, err
}

// packages holds what asPackage made of each test program's file: every
// check of an exercise lays out the same, and a course has a few.
var packages sync.Map

// rewriteMain does asPackage's work.
func rewriteMain(name string, data []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, data, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	f.Name.Name = "run"
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			fd.Name.Name = "Main"
			noinline(f, fd)
		}
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// noinline puts the directive //go:noinline right above fd, after its
// doc comment if it has one.
func noinline(f *ast.File, fd *ast.FuncDecl) {
	c := &ast.Comment{Slash: fd.Type.Func - 1, Text: "//go:noinline"}
	if fd.Doc == nil {
		// The printer prints the file's comments in their order.
		fd.Doc = &ast.CommentGroup{}
		i := 0
		for i < len(f.Comments) && f.Comments[i].Pos() < fd.Pos() {
			i++
		}
		f.Comments = slices.Insert(f.Comments, i, fd.Doc)
	}
	fd.Doc.List = append(fd.Doc.List, c)
}

// buildLearner builds the learner's program of the module mod (see
// combinedModule) in dir: directly when a kit of exs (every exercise of
// the check) is at hand, else, or if the kit proves broken, with the go
// command.
func (c *Checker) buildLearner(ctx context.Context, dir string, mod map[string][]byte, exs []*course.Exercise, todo []*job) (prog, sum string, p *Problem, err error) {
	if k, err := c.Build.Kit(ctx, exs, func() (map[string][]byte, error) { return probeModule(exs) }); err == nil && !c.noDirect {
		own := map[string][]byte{}
		ids := make([]string, len(todo))
		for i, j := range todo {
			ids[i] = j.Exercise.ID
		}
		for name, data := range mod {
			if strings.HasPrefix(name, "internal/run/") || !strings.Contains(name, "/") || isExerciseFile(name, ids) {
				own[name] = data
			}
		}
		if err := build.WriteModule(dir, own); err != nil {
			return "", "", nil, err
		}
		p, err := c.Build.DirectProgram(ctx, k, dir, ids)
		if err == nil {
			return p.Path, p.Sum, nil, nil
		}
		if !errors.Is(err, build.ErrKitBroken) {
			prog, p, err := buildOutcome("", err)
			return prog, "", p, err
		}
		// The go command builds this one.
	} else if ctx.Err() != nil {
		return "", "", nil, ctx.Err()
	}
	if err := build.WriteModule(dir, mod); err != nil {
		return "", "", nil, err
	}
	prog, err = c.Build.Go(ctx, dir)
	if err == nil {
		sum, err = build.FileSum(prog)
		return prog, sum, nil, err
	}
	prog, p, err = buildOutcome(prog, err)
	return prog, "", p, err
}

// buildOutcome turns what a build returned into the program, the
// learner's Problem, or kurs's error.
func buildOutcome(prog string, err error) (string, *Problem, error) {
	var ce *build.CompileError
	switch {
	case err == nil:
		return prog, nil, nil
	case errors.Is(err, build.ErrLimit):
		return "", &Problem{Kind: ProblemBuildLimit}, nil
	case errors.As(err, &ce):
		return "", compileProblem(ce.Dir, ce.Output), nil
	}
	return "", nil, err
}

// isExerciseFile reports whether name lies in the package of one of the
// exercises ids.
func isExerciseFile(name string, ids []string) bool {
	dir, _, _ := strings.Cut(name, "/")
	return slices.Contains(ids, dir)
}

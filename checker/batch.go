package checker

import (
	"bytes"
	"context"
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
	"sort"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/course"
)

// CheckAll checks several exercises of one workspace, ex[i] in dirs[i],
// with a single build: the learner's packages of all of them and their
// test programs are linked into one learner's program. Each exercise still
// runs in a process of its own, beside its own judge, with its own limits
// and output, so one exercise's crash or endless loop touches no other
// exercise's verdict. The results come in the order of exs; an error
// means kurs itself failed, or ctx ended.
func (c *Checker) CheckAll(ctx context.Context, exs []*course.Exercise, dirs []string) ([]*Result, error) {
	start := time.Now()
	results := make([]*Result, len(exs))
	files := make([][]source, len(exs))
	var todo []int // exercises left to build
	for i, ex := range exs {
		results[i] = &Result{Exercise: ex.ID, MaxScore: ex.Points, Seed: c.seed()}
		src, err := readSources(dirs[i], ex.ID)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w", dirs[i], err)
		}
		if p := inspect(ex.ID, src, ex.Imports); p != nil && !c.noDefences {
			results[i].Status, results[i].Problem = Error, p
			continue
		}
		files[i] = src
		todo = append(todo, i)
	}
	judges := make([]string, len(exs))
	for _, i := range todo {
		j, err := c.judge(ctx, exs[i])
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, err
		}
		judges[i] = j
	}

	tmp, err := os.MkdirTemp(c.TempDir, "kurs-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	// Build; an exercise whose code does not build gets its compile error
	// and leaves the next build. Errors go by package, so a build finds
	// every exercise that does not build, and the second one succeeds.
	var prog string
	var final map[string][]byte // the module that built
	for len(todo) > 0 {
		mod, err := combinedModule(exs, files, todo)
		if err != nil {
			return nil, err
		}
		final = mod
		dir, err := os.MkdirTemp(tmp, "build-")
		if err != nil {
			return nil, err
		}
		p, problem, err := c.buildLearner(ctx, dir, mod, exs, todo)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, err
		}
		if problem == nil {
			prog = p
			break
		}
		blamed := blame(dir, problem, exs, todo)
		if len(blamed) == 0 && len(todo) == 1 {
			blamed = map[int]*Problem{todo[0]: problem}
		}
		if len(blamed) == 0 {
			// Not one exercise's code: a limit of the whole build. Each
			// is checked alone, so each gets its own verdict.
			return results, c.checkEach(ctx, exs, dirs, todo, results)
		}
		var rest []int
		for _, i := range todo {
			if p, ok := blamed[i]; ok {
				results[i].Status, results[i].Problem = Error, p
			} else {
				rest = append(rest, i)
			}
		}
		todo = rest
	}
	for _, i := range todo {
		if exs[i].Concurrent {
			// The race detector's build is the go command's, in the whole
			// module.
			if err := writeFiles(filepath.Dir(prog), final); err != nil {
				return nil, err
			}
			break
		}
	}
	raceProg := c.raceBuild(ctx, filepath.Dir(prog))
	for n, i := range todo {
		ex := exs[i]
		res := results[i]
		run := time.Now()
		if err := c.run(ctx, tmp, []string{prog, ex.ID, "serve"}, judges[i], ex, res); err != nil {
			return nil, err
		}
		if n == 0 && len(todo) > 1 && neverReady(res) {
			// The shared program died or hung before it was ready: Go
			// initialises every linked package, so some exercise's
			// package crashes or hangs in its initialisation, which every
			// exercise of the program suffers. Each is checked alone, so
			// the fault is its own exercise's. (Once a run got ready, the
			// initialisation is known to pass.)
			return results, c.checkEach(ctx, exs, dirs, todo, results)
		}
		if ex.Concurrent {
			if err := c.race(ctx, filepath.Dir(prog), raceProg, []string{ex.ID, "serve"}, judges[i], ex, res); err != nil {
				return nil, err
			}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		res.Duration = time.Since(run)
	}
	// The shared build's time is spread over the exercises that had it,
	// so that durations add up to the submission's time.
	var ran time.Duration
	for _, i := range todo {
		ran += results[i].Duration
	}
	share := (time.Since(start) - ran) / time.Duration(max(len(exs), 1))
	for i := range results {
		results[i].Duration += share
	}
	return results, nil
}

// checkEach checks the exercises in todo one by one, each with a build
// of its own, into results.
func (c *Checker) checkEach(ctx context.Context, exs []*course.Exercise, dirs []string, todo []int, results []*Result) error {
	for _, i := range todo {
		res, err := c.Check(ctx, exs[i], dirs[i])
		if err != nil {
			return err
		}
		results[i] = res
	}
	return nil
}

// combinedModule lays out one module with the learner's packages of the
// exercises in todo, each test program as a package of its own under
// internal/run/ID with its main renamed Main, and a main that runs the
// one named by its first argument.
func combinedModule(exs []*course.Exercise, files [][]source, todo []int) (map[string][]byte, error) {
	mod := map[string][]byte{}
	var ids []string
	for _, i := range todo {
		ex := exs[i]
		one, err := moduleFiles(ex, files[i], false)
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
func asPackage(name string, data []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, data, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	f.Name.Name = "run"
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			fd.Name.Name = "Main"
		}
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// blame splits a failed build's problem by exercise: the go command heads
// each package's errors with "# import/path". It returns nothing when no
// error is in an exercise's package or test program.
func blame(dir string, p *Problem, exs []*course.Exercise, todo []int) map[int]*Problem {
	if p.Kind != ProblemCompile && p.Kind != ProblemAPI {
		return nil
	}
	byID := map[string]int{}
	for _, i := range todo {
		byID[exs[i].ID] = i
	}
	blocks := map[int][]string{}
	current := -1
	for _, l := range strings.Split(p.output, "\n") {
		if pkg, ok := strings.CutPrefix(l, "# "); ok {
			current = -1
			rest := strings.TrimPrefix(strings.TrimPrefix(pkg, module+"/"), "internal/run/")
			id, _, _ := strings.Cut(rest, "/")
			if i, known := byID[id]; known {
				current = i
			}
			continue
		}
		if current >= 0 {
			blocks[current] = append(blocks[current], l)
		}
	}
	out := map[int]*Problem{}
	for i, lines := range blocks {
		out[i] = compileProblem(dir, strings.Join(lines, "\n"))
	}
	return out
}

// neverReady reports whether the learner's program of res never got
// through its initialisation: no test began.
func neverReady(res *Result) bool {
	return res.Problem != nil && (res.Problem.Kind == ProblemCrash || res.Problem.Kind == ProblemTimeout)
}

// buildLearner builds the learner's program of the combined module mod in
// dir: directly when a kit of exs is at hand (see direct.go), else, or if
// the kit proves broken, with the go command.
func (c *Checker) buildLearner(ctx context.Context, dir string, mod map[string][]byte, exs []*course.Exercise, todo []int) (string, *Problem, error) {
	if k, err := c.kitFor(ctx, exs); err == nil && !c.noDirect {
		own := map[string][]byte{}
		for name, data := range mod {
			if strings.HasPrefix(name, "internal/run/") || !strings.Contains(name, "/") || isExerciseFile(name, exs, todo) {
				own[name] = data
			}
		}
		if err := writeFiles(dir, own); err != nil {
			return "", nil, err
		}
		prog, p, err := c.buildDirect(ctx, k, dir, exs, todo)
		if !errors.Is(err, errKitBroken) {
			return prog, p, err
		}
		// The go command builds this one; the kit goes only if an archive
		// of it is really gone, which no learner's code can bring about.
		if !k.whole() {
			dropKit(k)
		}
	} else if ctx.Err() != nil {
		return "", nil, ctx.Err()
	}
	if err := writeFiles(dir, mod); err != nil {
		return "", nil, err
	}
	return c.build(ctx, dir, "kurs-learner", buildTimeout)
}

// isExerciseFile reports whether name lies in the package of one of the
// exercises in todo.
func isExerciseFile(name string, exs []*course.Exercise, todo []int) bool {
	dir, _, _ := strings.Cut(name, "/")
	for _, i := range todo {
		if exs[i].ID == dir {
			return true
		}
	}
	return false
}

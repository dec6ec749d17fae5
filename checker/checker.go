// Package checker builds a learner's exercise together with the hidden tests
// and the reference solution, runs it under limits, and reports what
// happened.
//
// It is a library: the CLI, the web UI and batch grading call Check. It
// does not render results for people; see the report package.
package checker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/sandbox"
	"github.com/kurs-course/kurs/internal/workspace"
)

// module is the module path of the temporary module; it equals kurs's own,
// so the harness compiles unchanged in both.
const module = harness.Module

// Defaults for the limits of a Checker.
const (
	DefaultTimeout   = 10 * time.Second
	DefaultMemory    = 512 << 20
	DefaultOutputCap = 64 << 10
	DefaultSeed      = 1
)

// Checker checks exercises. Fields left zero take the defaults above.
// A Checker holds no state of its own: checks may run at once.
type Checker struct {
	// Build builds and caches the judges and the learner's programs; a
	// front end makes one and shares it between all its checks. Nil
	// means a Builder of the default cache for each call alone, which
	// makes again (or reads from the cache) what a shared one would keep.
	Build *build.Builder
	// Timeout bounds the run of one exercise's tests (not its build).
	Timeout time.Duration
	// Memory bounds the test program's memory in bytes.
	Memory int64
	// OutputCap bounds how much of the learner's output is kept.
	OutputCap int
	// Seed makes the random traces; the same seed gives the same traces.
	Seed uint64
	// TempDir is where temporary modules are made; empty means os.TempDir.
	TempDir string
	// Reuse lets a check whose inputs are those of an earlier one (the
	// learner's files, the exercise's content, the toolchain, the seed and
	// the limits) give that check's result, kept in the Builder's cache,
	// instead of building and running again. The learner's loop sets it;
	// a grader, whose identical submissions should each be judged, and
	// tests of the checker itself leave it off.
	Reuse bool
	// Reused, when set, is told of each check that gave a kept result
	// (see Reuse), so that a front end can say how much did not run
	// again. It may be called from several goroutines at once.
	Reused func(ex *course.Exercise)
	// Progress, when set, is told of a stage of a check that may take a
	// while before it begins, so that a front end can say why nothing
	// seems to happen. It is called from the checking goroutine.
	Progress func(exercise string, stage Stage)

	// noDefences turns off the static checks, the resource limits and the
	// process group, so a benchmark can measure what they cost. Tests only.
	noDefences bool
	// noDirect makes the go command build every learner's program, so
	// that a test can hold the direct build to it. Tests only.
	noDirect bool
	// noConstants builds and runs the learner's program of a quiz whose
	// answers are constants too, so that a test can hold the checker's
	// own answering to it. Tests only.
	noConstants bool
	// trustInit takes every package's initialisation for inert, so that
	// a test can see the batch program's start refuse one that is not.
	trustInit bool
}

// source is one learner file.
type source struct {
	Name string // base name
	Path string // relative to the workspace, slash-separated
	Data []byte // at most maxFileSize bytes
	Size int64  // the file's size as it claims
	// TooLarge says the file holds more than maxFileSize bytes; its data
	// was not kept.
	TooLarge bool
}

// ReadSources returns the learner's files of an exercise: the non-test .go
// files directly in dir. Symbolic links, folders and _test.go files are
// ignored, as the workspace contract says.
func ReadSources(dir, rel string) ([]string, error) {
	src, err := readSources(dir, rel)
	names := make([]string, len(src))
	for i, s := range src {
		names[i] = s.Path
	}
	return names, err
}

func readSources(dir, rel string) ([]source, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []source
	for _, d := range entries {
		name := d.Name()
		if !d.Type().IsRegular() || !workspace.IsSource(name) {
			continue
		}
		if len(files) == maxFiles {
			// One more than allowed is enough to refuse the folder; the
			// rest is never read.
			files = append(files, source{Name: name, Path: path.Join(rel, name)})
			break
		}
		info, err := d.Info()
		if err != nil {
			return nil, err
		}
		src := source{Name: name, Path: path.Join(rel, name)}
		src.Data, err = workspace.ReadFileMax(filepath.Join(dir, name), maxFileSize)
		if errors.Is(err, workspace.ErrTooLarge) {
			// Never trust the size it claims: one byte more than the limit
			// was read, and that is enough to refuse it.
			src.Data, src.TooLarge, err = nil, true, nil
		}
		if err != nil {
			return nil, err
		}
		src.Size = max(info.Size(), int64(len(src.Data)))
		files = append(files, src)
	}
	return files, nil
}

// Check checks the learner's exercise in dir, whose path relative to the
// workspace is ex.ID. It returns a Result for every outcome of the learner's
// code; an error means kurs itself could not do its job, or ctx ended (the
// error is then ctx's). Nothing of the check is left running or on disk
// when it returns.
func (c *Checker) Check(ctx context.Context, ex *course.Exercise, dir string) (*Result, error) {
	results, err := c.CheckAll(ctx, []Job{{Exercise: ex, Dir: dir}})
	if err != nil {
		return nil, err
	}
	return results[0], nil
}

// learnerCommand returns the command that runs a learner's program (prog:
// the binary and its arguments) in dir. The program runs confined by the
// kernel: its code may break Go's memory safety through a data race, so
// the boundary is the process. CPU time adds up over all threads: every
// core gets the whole wall-clock limit, so the wall clock (and the judge's
// report of the running step) decides, and the CPU limit backs it up.
func (c *Checker) learnerCommand(ctx context.Context, dir string, prog []string) *exec.Cmd {
	memory := c.memory()
	policy := sandbox.Policy{Confine: true, Memory: memory, FileSize: 1 << 20,
		CPU: (c.timeout() + 2*time.Second) * time.Duration(runtime.NumCPU())}
	// Without the launcher program, kurs itself launches: the same code.
	policy.Launcher, _ = c.Build.Launcher(ctx)
	cmd := sandbox.Command(ctx, policy, prog[0], prog[1:]...)
	cmd.Env = []string{"KURS_MEMORY=" + strconv.FormatInt(memory, 10), "GOTRACEBACK=single"}
	if c.noDefences {
		cmd = exec.CommandContext(ctx, prog[0], prog[1:]...)
	}
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	return cmd
}

// memory returns the memory limit of a learner's program.
func (c *Checker) memory() int64 {
	if c.Memory <= 0 {
		return DefaultMemory
	}
	return c.Memory
}

// timeout returns the time limit of one exercise's run.
func (c *Checker) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

// outputCap returns how much of the learner's output is kept.
func (c *Checker) outputCap() int {
	if c.OutputCap <= 0 {
		return DefaultOutputCap
	}
	return c.OutputCap
}

func (c *Checker) seed() uint64 {
	if c.Seed == 0 {
		return DefaultSeed
	}
	return c.Seed
}

// moduleFiles lays out a temporary module, path by path: the exercise's
// package (the learner's files with the API check, or for the judge the
// reference in their place), the harness, the support packages, the
// exercise's test program and its suite. The learner's program and the
// judge are built from the same driver; only the package at the
// exercise's import path differs.
func moduleFiles(ex *course.Exercise, files []source, judge bool) (map[string][]byte, error) {
	mod := map[string][]byte{"go.mod": []byte("module " + module + "\n\ngo " + build.GoLanguage + "\n")}
	driver, api, err := ex.Tests()
	if err != nil {
		return nil, err
	}
	if judge {
		ref, err := ex.Solution()
		if err != nil {
			return nil, err
		}
		for _, f := range ref {
			mod[path.Join(ex.ID, f.Name)] = f.Data
		}
	} else {
		for _, f := range files {
			mod[path.Join(ex.ID, f.Name)] = f.Data
		}
		for _, f := range api {
			mod[path.Join(ex.ID, apiFile)] = f.Data
		}
	}
	for _, f := range driver {
		mod[path.Join("internal/run", f.Name)] = f.Data
	}
	support, err := ex.SupportFiles()
	if err != nil {
		return nil, err
	}
	for dir, fs := range support {
		for _, f := range fs {
			mod[path.Join("exercises", dir, f.Name)] = f.Data
		}
	}
	hfiles, err := harnessFiles()
	if err != nil {
		return nil, err
	}
	for name, data := range hfiles {
		mod[name] = data
	}
	if judge {
		suite, err := json.Marshal(ex.Suite)
		if err != nil {
			return nil, err
		}
		mod["suite.json"] = suite
	}
	return mod, nil
}

// harnessFiles returns the harness's files by their path in a module,
// read once: every check lays them out for its judge and its program, and
// they never change while kurs runs.
var harnessFiles = sync.OnceValues(func() (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(harness.Source, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(harness.Source, name)
		files[path.Join("internal/harness", name)] = data
		return err
	})
	return files, err
})

// withBuild returns c with a Builder, and what to call when done with it:
// c itself when it has one, else a copy with a Builder of its own for the
// call.
func (c *Checker) withBuild() (*Checker, func(), error) {
	if c.Build != nil {
		return c, func() {}, nil
	}
	b, err := build.New(build.Options{TempDir: c.TempDir})
	if err != nil {
		return nil, nil, err
	}
	own := *c
	own.Build = b
	return &own, func() { b.Close() }, nil
}

// compileProblem turns the go command's output into a Problem that shows
// the learner's own paths.
func compileProblem(tmp, out string) *Problem {
	out = strings.ReplaceAll(out, tmp+string(filepath.Separator), "")
	out = strings.ReplaceAll(out, filepath.ToSlash(tmp)+"/", "")
	var lines []string
	api, own := false, false
	pkg := "" // the learner's package, where the API check failed
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		l = strings.TrimPrefix(l, "./")
		if strings.Contains(l, apiFile) || strings.HasPrefix(l, "internal/") {
			api = true
			if dir, _, ok := strings.Cut(l, apiFile); ok && pkg == "" {
				pkg = filepath.Join(tmp, filepath.FromSlash(dir))
			}
			// The position is kurs's own file; the message is what counts.
			if i := strings.Index(l, ".go:"); i >= 0 {
				if j := strings.Index(l[i+4:], ": "); j >= 0 {
					l = l[i+4+j+2:]
				}
			}
		} else {
			own = true
		}
		lines = append(lines, l)
	}
	// Only code that builds on its own can be said to build with another
	// API: an error in the learner's files makes it a compile problem,
	// whose list still names what the API lacks.
	kind := ProblemCompile
	if api && !own {
		kind = ProblemAPI
	}
	p := &Problem{Kind: kind, Detail: strings.Join(lines, "\n")}
	if pkg != "" {
		rel, _ := filepath.Rel(tmp, pkg)
		p.Declared, p.DeclaredAt, p.Excluded, p.NoneBuilt = declared(pkg, filepath.ToSlash(rel))
	}
	return p
}

// run runs the learner's program (prog: the binary and its arguments) and
// the judge side by side, connected by two pipes, and collects the judge's
// records into res. Only the judge's records count: the learner's program
// holds no channel to the checker.
func (c *Checker) run(ctx context.Context, tmp string, prog []string, judge string, ex *course.Exercise, res *Result) error {
	return c.runJudge(ctx, tmp, prog, nil, judge, ex, res)
}

// runJudge is run, for a learner's program (prog) or, when prog is nil,
// for a quiz whose answers are known without running anything
// (constantAnswers): the checker then answers the judge's requests
// itself, through the same pipes, with the harness's learner's side, so
// the judge and its records are those of a run of the program.
func (c *Checker) runJudge(ctx context.Context, tmp string, prog, answers []string, judge string, ex *course.Exercise, res *Result) error {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	memory := c.Memory
	if memory <= 0 {
		memory = DefaultMemory
	}
	limit := c.outputCap()
	// The judge reports a timeout itself a little before the hard limit,
	// so the learner learns which step was running.
	soft := timeout - min(timeout/10, time.Second)
	ctx, cancel := context.WithTimeout(ctx, timeout+time.Second)
	defer cancel()

	reqR, reqW, err := os.Pipe()
	if err != nil {
		return err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return err
	}
	closeAll := func(fs ...*os.File) {
		for _, f := range fs {
			f.Close()
		}
	}
	defer closeAll(reqR, reqW, repR, repW)

	out := &capped{limit: limit}
	var learner *exec.Cmd
	if prog != nil {
		learner = c.learnerCommand(ctx, tmp, prog)
		learner.Env = append(learner.Env, "KURS_PIPES="+passFiles(learner, reqR, repW))
		learner.Stdout, learner.Stderr = out, out
	}

	// The judge runs no learner code: it needs no confinement, only its
	// own process group, and it limits its own memory.
	suite, err := c.suiteFile(ex)
	if err != nil {
		return err
	}
	jud := sandbox.Trusted(ctx, judge, "judge", suite)
	jud.Dir = tmp
	jud.Env = []string{
		// The judge works on one thing at a time: with one processor it
		// spends less time in the scheduler (a tenth less in all).
		"GOMAXPROCS=1",
		"KURS_MEMORY=" + strconv.FormatInt(memory, 10),
		"KURS_PIPES=" + passFiles(jud, reqW, repR),
		"KURS_SEED=" + strconv.FormatUint(res.Seed, 10),
		"KURS_DEADLINE=" + soft.String(),
	}
	judgeErr := &capped{limit: 4 << 10}
	jud.Stderr = judgeErr
	records, err := jud.StdoutPipe()
	if err != nil {
		return err
	}
	jud.WaitDelay = time.Second

	if prog == nil {
		return c.answer(ctx, jud, answers, records, judgeErr, ex, res, reqR, reqW, repR, repW)
	}
	if err := learner.Start(); err != nil {
		return fmt.Errorf("start tests: %w", err)
	}
	learnerDone := make(chan error, 1)
	go func() { learnerDone <- learner.Wait() }()
	var learnerErr error
	waited := false
	wait := func() {
		if !waited {
			learnerErr, waited = <-learnerDone, true
		}
	}
	defer func() {
		sandbox.Kill(learner)
		wait()
	}()
	if err := jud.Start(); err != nil {
		return fmt.Errorf("start judge: %w", err)
	}
	// The children hold their ends now; the checker's copies would keep
	// the pipes open after a child's death.
	closeAll(reqR, reqW, repR, repW)
	got := readRecords(records)
	judgeWait := jud.Wait()
	sandbox.Kill(jud)
	inTime := ctx.Err() == nil

	// A judge that ended before its time without finishing the tests
	// lost the learner's program: it died, closing its pipes as it did,
	// and its exit, which carries its last words, is on its way however
	// busy the machine is. It is waited for up to the check's own limit
	// (a program that closed its pipes and lives on is ended there). A
	// program whose tests are done, or which is stuck past the judge's
	// deadline, gets a moment to end by itself. Either way, what the
	// result says of a limit is what held when the judge ended.
	exited := false
	grace := time.After(100 * time.Millisecond)
	if learnerGone(got) {
		grace = nil
	}
	select {
	case learnerErr = <-learnerDone:
		waited, exited = true, true
	case <-grace:
		sandbox.Kill(learner)
		wait()
	case <-ctx.Done():
		sandbox.Kill(learner)
		wait()
	}

	res.Output, res.Truncated = out.String(), out.truncated
	res.Killed = !inTime || (exited && killedByLimit(learnerErr))
	if exited && learnerErr != nil && !res.Killed {
		// The runtime's report may be cut off from the tail by a long
		// stack dump, or from the head by the learner's output: try both.
		if res.Crash = lastWords(out.Tail()); res.Crash == "" {
			res.Crash = lastWords(res.Output)
		}
	}
	if judgeWait != nil && inTime {
		return fmt.Errorf("judge of %s: %w: %s", ex.ID, judgeWait, strings.TrimSpace(judgeErr.String()))
	}
	collect(ex, got, res, !exited)
	return nil
}

// answer runs the judge jud of a quiz whose answers are known and gives
// it those answers itself, as the learner's program would: the harness's
// learner's side reads the judge's requests from reqR and answers on repW.
// The result is that of a learner's program that printed nothing and
// ended when the judge was done.
func (c *Checker) answer(ctx context.Context, jud *exec.Cmd, answers []string, records io.Reader, judgeErr *capped, ex *course.Exercise, res *Result, reqR, reqW, repR, repW *os.File) error {
	if err := jud.Start(); err != nil {
		return fmt.Errorf("start judge: %w", err)
	}
	// The judge holds its ends now; ours would keep its pipes open.
	reqW.Close()
	repR.Close()
	served := make(chan struct{})
	go func() {
		defer close(served)
		harness.Serve(&harness.QuizDriver{Answers: func() []string { return answers }}, reqR, repW)
		// The judge reads to the end of the answers: the learner's side
		// is done.
		repW.Close()
	}()
	got := readRecords(records)
	judgeWait := jud.Wait()
	sandbox.Kill(jud)
	// The judge has ended and with it its end of the requests: the
	// learner's side reads to their end and stops.
	<-served
	res.Killed = ctx.Err() != nil
	if judgeWait != nil && ctx.Err() == nil {
		return fmt.Errorf("judge of %s: %w: %s", ex.ID, judgeWait, strings.TrimSpace(judgeErr.String()))
	}
	collect(ex, got, res, false)
	return nil
}

// learnerGone reports whether the judge's records end without the judge
// finishing the tests ("done") or running out of time: the judge stopped
// because the learner's program was gone.
func learnerGone(records []harness.Record) bool {
	for _, r := range records {
		if r.Kind == "done" || (r.Failure != nil && r.Failure.Kind == harness.Timeout) {
			return false
		}
	}
	return true
}

// collect turns the records into test results: every expected test that
// sent no result counts as failed. stuck says the learner's program was
// still running when the judge ended.
func collect(ex *course.Exercise, records []harness.Record, res *Result, stuck bool) {
	byName := map[string]harness.Record{}
	started := map[string]bool{}
	for _, r := range records {
		switch r.Kind {
		case "start":
			started[r.Test] = true
		case "result":
			if _, dup := byName[r.Test]; !dup {
				byName[r.Test] = r
			}
		}
	}
	points, perTest := ex.TestPoints()
	passed := 0
	for _, t := range ex.Suite.Tests {
		r, ok := byName[t.Name]
		tr := Test{Name: t.Name, Status: Fail}
		switch {
		case !ok:
			tr.Missing = true
			tr.Crashed = started[t.Name]
		case r.Status == "pass" && (r.Failure == nil || r.Failure.Pass):
			tr.Status, tr.Note = Pass, r.Failure
			passed++
			res.Score += points[t.Name]
		default:
			tr.Failure = r.Failure
		}
		res.Tests = append(res.Tests, tr)
	}
	switch {
	case len(started) == 0 && len(byName) == 0:
		// Not a single test began: the program died or hung before, in
		// the learner's init or package variables.
		res.Status, res.Score = Error, 0
		res.Problem = &Problem{Kind: ProblemCrash, Detail: res.Crash}
		if res.Killed || stuck {
			res.Problem = &Problem{Kind: ProblemTimeout}
		}
	case passed == len(ex.Suite.Tests):
		res.Status, res.Score = Pass, res.MaxScore
	default:
		res.Status = Fail
		if !perTest {
			res.Score = 0
		}
	}
}

// readRecords reads the judge's records until it closes its output.
func readRecords(r io.Reader) []harness.Record {
	var recs []harness.Record
	sc := bufio.NewScanner(r)
	// A record carries the steps before a failure, each value up to
	// harness.MaxValue.
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var rec harness.Record
		if json.Unmarshal(sc.Bytes(), &rec) == nil {
			recs = append(recs, rec)
		}
	}
	_, _ = io.Copy(io.Discard, r)
	return recs
}

// lastWords returns the runtime's report of a crash in a form that is the
// same on every run: its message (from the last "panic:" or "fatal
// error:" on, up to the stack dump) and the frames in the learner's code,
// innermost first, each as the function without its argument values and
// the file:line relative to the workspace. A crash report is full of
// addresses that differ from run to run (Go randomizes the heap's base,
// the kernel the stack's) and of runtime, harness and test program frames
// that depend on the moment a memory bomb hit its limit; what stays is
// what the learner can act on.
func lastWords(out string) string {
	i := max(strings.LastIndex(out, "\npanic: "), strings.LastIndex(out, "\nfatal error: "))
	if i < 0 && (strings.HasPrefix(out, "panic: ") || strings.HasPrefix(out, "fatal error: ")) {
		i = 0
	}
	if i < 0 {
		return ""
	}
	rest := strings.TrimSpace(out[i:])
	msg, dump, _ := strings.Cut(rest, "\n\n")
	if len(msg) > 1000 {
		msg = msg[:1000] + "…"
	}
	report := []string{HideAddresses(msg)}
	// A frame is a function line, then a tab and file:line; the learner's
	// files are in the module outside kurs's own packages.
	lines := strings.Split(dump, "\n")
	frames := 0
	for k := 1; k < len(lines) && frames < maxFrames; k++ {
		loc, ok := strings.CutPrefix(lines[k], "\t"+module+"/")
		if !ok || strings.HasPrefix(loc, "internal/") {
			continue
		}
		loc, _, _ = strings.Cut(loc, " ") // drop +0x… and fp=…
		fn := strings.TrimPrefix(lines[k-1], module+"/")
		if j := strings.LastIndex(fn, "("); j > 0 {
			fn = fn[:j] + "(…)"
		}
		if n := len(report); n >= 3 && report[n-2] == fn && report[n-1] == "\t"+loc {
			continue // recursion: the same frame again
		}
		report = append(report, fn, "\t"+loc)
		frames++
	}
	return strings.Join(report, "\n")
}

// maxFrames bounds the learner's frames kept from a crash report; a stack
// overflow has thousands, all alike.
const maxFrames = 10

// addresses matches values long enough to be addresses rather than
// offsets or small numbers.
var addresses = regexp.MustCompile(`0x[0-9a-f]{9,}`)

// HideAddresses replaces what looks like a memory address in s with "0x…":
// a value that differs from run to run of the same code.
func HideAddresses(s string) string { return addresses.ReplaceAllString(s, "0x…") }

// tailSize is how much of the end of the output is kept for the runtime's
// last words, which follow whatever the learner printed.
const tailSize = 16 << 10

// capped keeps the first limit bytes written to it, drops the rest, and
// keeps the last tailSize bytes apart.
type capped struct {
	buf       bytes.Buffer
	tail      []byte
	limit     int
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.limit - c.buf.Len()
	if room < len(p) {
		c.truncated = true
	}
	if room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	c.tail = append(c.tail, p[max(0, len(p)-tailSize):]...)
	if len(c.tail) > 2*tailSize {
		c.tail = append(c.tail[:0], c.tail[len(c.tail)-tailSize:]...)
	}
	return len(p), nil
}

func (c *capped) String() string { return c.buf.String() }

// Tail returns the end of everything written.
func (c *capped) Tail() string { return string(c.tail[max(0, len(c.tail)-tailSize):]) }

// Warm builds every exercise's judge, the kit of all of them and the
// launcher program (see the build package), so that the first check finds the standard library, the
// harness and the support packages compiled. A check in this process of
// any of the exercises uses that kit; another process finds them in the
// build cache and makes its own kit quickly.
func (c *Checker) Warm(ctx context.Context, exercises []*course.Exercise) error {
	c, done, err := c.withBuild()
	if err != nil {
		return err
	}
	defer done()
	for _, ex := range exercises {
		if _, err := c.judge(ctx, ex); err != nil {
			return err
		}
	}
	if len(exercises) == 0 {
		return nil
	}
	if _, err = c.Build.Kit(ctx, exercises, func() (map[string][]byte, error) { return probeModule(exercises) }); err != nil {
		return err
	}
	// Without it the first check would still build the launcher; a
	// system that has none checks with kurs as the launcher.
	_, _ = c.Build.Launcher(ctx)
	return nil
}

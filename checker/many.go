package checker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/sandbox"
)

// CheckBatch checks the exercises of several submissions, each the jobs
// of one workspace, as CheckAll checks each, with the same results, and
// calls done with each submission's index and results, in the order of
// its jobs, as soon as they are there, or with the error that kept kurs
// from checking that submission (as CheckAll's); calls never overlap.
//
// It differs in what it builds: the exercises whose package
// initialisation runs nothing but allocations (see inert) share one
// program, linked once for all of them, where CheckAll links one for
// each; the link is the largest cost of checking a submission. Each
// exercise still runs in its own confined process beside its own judge,
// with its own limits, running its own test program: the code of the
// others in the program never runs there. Every other exercise, and one
// whose code does not compile, is built as CheckAll builds it.
//
// An error means kurs itself failed for every submission not yet
// reported, or ctx ended.
func (c *Checker) CheckBatch(ctx context.Context, subs [][]Job, done func(i int, results []*Result, err error)) error {
	c, finish, err := c.withBuild()
	if err != nil {
		return err
	}
	defer finish()
	start := time.Now()
	alls := make([][]*job, len(subs))
	todos := make([][]*job, len(subs))
	prepared := make([]time.Duration, len(subs))
	failed := make([]bool, len(subs))
	var every []*job
	for i, jobs := range subs {
		t := time.Now()
		for _, j := range jobs {
			alls[i] = append(alls[i], &job{Job: j})
		}
		if todos[i], err = c.prepare(ctx, alls[i]); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// This submission's failure, such as a file kurs cannot
			// read; the others are checked.
			failed[i] = true
			done(i, nil, err)
			continue
		}
		every = append(every, alls[i]...)
		prepared[i] = time.Since(t)
	}
	tmp, err := os.MkdirTemp(c.TempDir, "kurs-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	answers := map[*job][]string{}
	var programs []*job
	for _, todo := range todos {
		a, p := c.constants(todo)
		for j, v := range a {
			answers[j] = v
		}
		programs = append(programs, p...)
	}
	// The kit of every exercise of the batch, each named once.
	var exs []*course.Exercise
	for _, ex := range exercises(every) {
		if !slices.Contains(exs, ex) {
			exs = append(exs, ex)
		}
	}
	progs, alone, err := c.buildBatch(ctx, tmp, exs, programs)
	if err != nil {
		return err
	}
	each, err := c.buildEach(ctx, tmp, exs, alone)
	if err != nil {
		return err
	}
	for j, p := range each {
		progs[j] = p
	}
	// The build's time is the submissions', each its part.
	built := time.Since(start)
	for _, d := range prepared {
		built -= d
	}
	built /= time.Duration(len(subs))
	for i, todo := range todos {
		if failed[i] {
			continue
		}
		t := time.Now().Add(-prepared[i])
		if err := c.runAll(ctx, tmp, t, built, alls[i], todo, progs, answers); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			done(i, nil, err)
			continue
		}
		for _, j := range todo {
			if p := progs[j]; p == nil || p.member == "" || !(j.res.Killed || j.res.Crash != "") {
				// A crash or a kill in a batch is not kept: whatever
				// a member's start cost the others stays in this run.
				c.remember(j)
			}
		}
		results := make([]*Result, len(alls[i]))
		for k, j := range alls[i] {
			results[k] = j.res
		}
		done(i, results, nil)
	}
	return nil
}

// buildBatch builds one program for the jobs that can share one (see
// CheckBatch) and returns their programs, and the jobs to build each
// alone: those that cannot, and those whose code did not compile, which
// their own build words as CheckAll does.
func (c *Checker) buildBatch(ctx context.Context, tmp string, exs []*course.Exercise, jobs []*job) (map[*job]*program, []*job, error) {
	progs := map[*job]*program{}
	if c.noDirect || len(jobs) < 2 {
		return progs, jobs, nil
	}
	k, err := c.Build.Kit(ctx, exs, func() (map[string][]byte, error) { return probeModule(exs) })
	if err != nil || k.GOOS != "linux" {
		// The build alone finds the same failure, or the platform's
		// programs are not ELF, whose size the batch must know.
		return progs, jobs, ctx.Err()
	}
	dir := filepath.Join(tmp, "batch")
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, nil, err
	}
	var alone []*job
	byName := map[string][]*job{}
	mods := map[string]map[string][]byte{}
	var members []build.Member
	for _, j := range jobs {
		tests, api, err := j.Exercise.Tests()
		if err != nil {
			return nil, nil, err
		}
		driver, err := mergedDriver(j.Exercise.ID, tests)
		if err != nil || !(c.trustInit || inert(j.files, api)) || !mergeable(j.files) {
			alone = append(alone, j)
			continue
		}
		own := map[string][]byte{path.Join(j.Exercise.ID, mergedFile): driver}
		for _, f := range j.files {
			own[path.Join(j.Exercise.ID, f.Name)] = f.Data
		}
		for _, f := range api {
			own[path.Join(j.Exercise.ID, apiFile)] = f.Data
		}
		name := memberName(own)
		if byName[name] == nil {
			if err := build.WriteModule(filepath.Join(dir, name), own); err != nil {
				return nil, nil, err
			}
			members = append(members, build.Member{Name: name, ID: j.Exercise.ID, Driver: mergedFile})
			// The module of a program of its own, for the race
			// detector's build of a concurrent exercise.
			if mods[name], err = combinedModule([]*job{j}); err != nil {
				return nil, nil, err
			}
		}
		byName[name] = append(byName[name], j)
	}
	if len(members) < 2 {
		for _, js := range byName {
			alone = append(alone, js...)
		}
		return progs, alone, nil
	}
	p, in, err := c.Build.BatchProgram(ctx, k, dir, members)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if err == nil && p != nil && !c.starts(ctx, tmp, p.Path) {
		// What inert accepted did more than it should when the program
		// started: no member shares it.
		p = nil
	}
	if err != nil || p == nil {
		// A batch past its limits, or one that could not be made: each
		// member alone, as CheckAll builds it, finds out whose it is.
		for _, js := range byName {
			alone = append(alone, js...)
		}
		return progs, alone, nil
	}
	linked := map[string]bool{}
	for _, name := range in {
		linked[name] = true
		sum := sha256.Sum256([]byte(p.Sum + "\x00" + name))
		for _, j := range byName[name] {
			progs[j] = &program{path: p.Path, name: name, member: name, sum: hex.EncodeToString(sum[:]), mod: mods[name]}
		}
	}
	for _, m := range members {
		if !linked[m.Name] {
			alone = append(alone, byName[m.Name]...)
		}
	}
	return progs, alone, nil
}

// memberName names a member of a batch whose package's files are own:
// by their content, so that the same files get the same objects from one
// batch to the next.
func memberName(own map[string][]byte) string {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(own)) {
		h.Write([]byte(name + "\x00"))
		h.Write(own[name])
		h.Write([]byte{0})
	}
	return "k" + hex.EncodeToString(h.Sum(nil))[:20]
}

// unbatch gives res the words of a program of its own: the runtime names
// the functions of a batch's member by the member's import paths (see
// build.BatchPrefix), which a crash report or a panic may show.
func unbatch(res *Result, member string) {
	mark := "internal/batch/" + member + "/"
	fix := func(s *string) { *s = strings.ReplaceAll(*s, mark, "") }
	fix(&res.Output)
	fix(&res.Crash)
	if res.Problem != nil {
		fix(&res.Problem.Detail)
	}
	for i := range res.Tests {
		for _, f := range []*harness.Failure{res.Tests[i].Failure, res.Tests[i].Note} {
			if f != nil {
				fix(&f.Panic)
				fix(&f.Frame)
			}
		}
	}
}

// The limits of a batch program's start (see starts): far below a
// member's, since nothing but its packages' initialisation runs.
const (
	startMemory = 128 << 20
	startTime   = 10 * time.Second
)

// starts reports whether the batch program prog, named no member, does
// what it must: initialise every package, print nothing and exit with
// status 3, which it does only when its packages hold little of the heap
// (see build.BatchProgram), within startMemory and startTime, confined
// as a learner's program. It is the second line behind inert: whatever of a member's
// initialisation might panic, wait or fill memory would do so here, in
// every member's process.
func (c *Checker) starts(ctx context.Context, tmp, prog string) bool {
	ctx, cancel := context.WithTimeout(ctx, startTime)
	defer cancel()
	policy := sandbox.Policy{Confine: true, Memory: startMemory, FileSize: 1 << 20, CPU: startTime}
	policy.Launcher, _ = c.Build.Launcher(ctx)
	cmd := sandbox.Command(ctx, policy, prog)
	cmd.Env = []string{"KURS_MEMORY=" + strconv.FormatInt(startMemory, 10), "GOTRACEBACK=single"}
	cmd.Dir = tmp
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == 3 && len(out) == 0
}

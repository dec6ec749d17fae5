package checker

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
)

// CheckBatch checks the exercises of several submissions, each the jobs
// of one workspace, as CheckAll checks each, with the same results, and
// calls done with each submission's index and results, in the order of
// its jobs, as soon as they are there; calls never overlap.
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
// An error means kurs itself failed, or ctx ended.
func (c *Checker) CheckBatch(ctx context.Context, subs [][]Job, done func(i int, results []*Result)) error {
	c, finish, err := c.withBuild()
	if err != nil {
		return err
	}
	defer finish()
	start := time.Now()
	alls := make([][]*job, len(subs))
	todos := make([][]*job, len(subs))
	prepared := make([]time.Duration, len(subs))
	var every []*job
	for i, jobs := range subs {
		t := time.Now()
		for _, j := range jobs {
			alls[i] = append(alls[i], &job{Job: j})
		}
		if todos[i], err = c.prepare(ctx, alls[i]); err != nil {
			return err
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
		t := time.Now().Add(-prepared[i])
		err := c.runAll(ctx, tmp, t, built, alls[i], todo, progs, answers)
		if err != nil {
			return err
		}
		for _, j := range todo {
			c.remember(j)
		}
		if done != nil {
			results := make([]*Result, len(alls[i]))
			for k, j := range alls[i] {
				results[k] = j.res
			}
			done(i, results)
		}
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
		_, api, err := j.Exercise.Tests()
		if err != nil {
			return nil, nil, err
		}
		if !inert(j.files, api) {
			alone = append(alone, j)
			continue
		}
		mod, err := combinedModule([]*job{j})
		if err != nil {
			return nil, nil, err
		}
		name := memberName(j.Exercise.ID, mod)
		if byName[name] == nil {
			own := map[string][]byte{}
			for f, data := range mod {
				if strings.HasPrefix(f, "internal/run/"+j.Exercise.ID+"/") || isExerciseFile(f, []string{j.Exercise.ID}) {
					own[f] = data
				}
			}
			if err := build.WriteModule(filepath.Join(dir, name), own); err != nil {
				return nil, nil, err
			}
			members = append(members, build.Member{Name: name, ID: j.Exercise.ID})
			mods[name] = mod
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

// memberName names the learner's program of the exercise id whose module
// is mod in a batch: by its content, so that the same files get the same
// objects from one batch to the next.
func memberName(id string, mod map[string][]byte) string {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(mod)) {
		if strings.HasPrefix(name, id+"/") || strings.HasPrefix(name, "internal/run/"+id+"/") {
			h.Write([]byte(name + "\x00"))
			h.Write(mod[name])
			h.Write([]byte{0})
		}
	}
	return "k" + hex.EncodeToString(h.Sum(nil))[:20]
}

// unbatch gives res the words of a program of its own: the runtime names
// the functions of a batch's member by the member's import paths (see
// build.BatchPrefix), which a crash report or the output may show.
func unbatch(res *Result, member string) {
	mark := []byte("internal/batch/" + member + "/")
	data, err := json.Marshal(res)
	if err != nil || !bytes.Contains(data, mark) {
		return
	}
	var clean Result
	if json.Unmarshal(bytes.ReplaceAll(data, mark, nil), &clean) != nil {
		return
	}
	clean.Duration = res.Duration
	*res = clean
}

// Package grade grades submissions for CI and for a course's deadline: one
// workspace, or a folder holding hundreds, checked in parallel by one
// Checker that shares one build cache.
//
// A submission is read only for its exercise sources: the checker takes the
// non-test .go files directly in each exercise folder, and nothing else of
// a submission (its go.mod, kurs.toml, test files, copies of kurs's hidden
// tests or reference) takes effect. Which course, seed and language to
// grade with is the caller's choice, never the submission's.
//
// The package does not render results; see the report package.
package grade

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/session"
	"github.com/kurs-course/kurs/internal/workspace"
)

// Submission is one learner's work: a workspace, or a folder with the
// exercise folders.
type Submission struct {
	// ID names the submission in results: the name of its folder.
	ID string
	// Dir is the folder that holds the exercise folders.
	Dir string
	// timeout, when positive, is the time limit of this submission's
	// checks instead of the Checker's. Tests only (see WithTimeout): a
	// submission that hangs ends the same way after a short limit, which
	// its neighbours in a batch, correct ones, must not get.
	timeout time.Duration
}

// Find returns the submissions in dir, sorted by name: each sub-folder is
// one. Folders whose names start with "." or "_" are skipped, as the go
// command skips them (.git, __MACOSX), and so are files. A sub-folder that
// is a symbolic link is followed, since whoever set up dir put it there;
// inside a submission, nothing is followed.
//
// A sub-folder that holds neither kurs.toml nor an exercise folder but
// exactly one folder, as an archive unpacked with its top folder does, is
// graded from that folder.
func Find(dir string, exercises []*course.Exercise) ([]Submission, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var subs []Submission
	for _, e := range entries {
		name := e.Name()
		if skipped(name) {
			continue
		}
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			continue
		}
		subs = append(subs, Submission{ID: name, Dir: Root(p, exercises)})
	}
	return subs, nil
}

func skipped(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// Root returns the folder of a submission that holds its exercise folders:
// dir itself when it holds kurs.toml or an exercise folder, else its only
// folder when it has exactly one (not counting folders starting with "."
// or "_"), as an archive unpacked with its top folder has; else dir.
func Root(dir string, exercises []*course.Exercise) string {
	if holdsExercise(dir, exercises) {
		return dir
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return dir
	}
	var only string
	for _, e := range entries {
		if !e.IsDir() || skipped(e.Name()) {
			continue
		}
		if only != "" {
			return dir
		}
		only = filepath.Join(dir, e.Name())
	}
	if only == "" {
		return dir
	}
	return only
}

// Nested returns the names of the folders in dir that hold exercises (each
// as Root finds its exercise folders), sorted, when dir itself holds none:
// neither kurs.toml nor an exercise folder. dir is a submission's folder
// as Root returns it. Such a folder is a class, or a learner's several attempts, given
// where one submission belongs; graded as one, it would get no points and
// hide every submission in it. Nested returns nil for any other folder.
func Nested(dir string, exercises []*course.Exercise) []string {
	if holdsExercise(dir, exercises) {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() || skipped(e.Name()) {
			continue
		}
		if holdsExercise(Root(filepath.Join(dir, e.Name()), exercises), exercises) {
			names = append(names, e.Name())
		}
	}
	return names
}

// Holds returns the exercise folders in dir, by name, and whether dir
// holds kurs.toml: what makes a folder one submission.
func Holds(dir string, exercises []*course.Exercise) (names []string, config bool) {
	_, err := os.Lstat(filepath.Join(dir, workspace.ConfigFile))
	for _, ex := range exercises {
		if realDir(filepath.Join(dir, ex.ID)) {
			names = append(names, ex.ID)
		}
	}
	return names, err == nil
}

// holdsExercise reports whether dir holds kurs.toml or an exercise folder.
func holdsExercise(dir string, exercises []*course.Exercise) bool {
	names, config := Holds(dir, exercises)
	return config || len(names) > 0
}

// realDir reports whether name is a folder and not a symbolic link to one:
// a submission's exercise folder that links elsewhere (to another
// submission, or out of it) is not the learner's work.
func realDir(name string) bool {
	info, err := os.Lstat(name)
	return err == nil && info.IsDir()
}

// Grader grades submissions. Its fields must not change while Run runs.
type Grader struct {
	// Checker checks each exercise; its Seed, Timeout and limits apply to
	// every submission alike.
	Checker *checker.Checker
	// Exercises are the exercises every submission is graded in, in the
	// order of the results.
	Exercises []*course.Exercise
	// Jobs is how many checks run at once; 0 means one per processor the
	// process may use (runtime.GOMAXPROCS).
	Jobs int
	// Alone checks each submission in programs of its own: no program
	// holds two submissions' code. By default a chunk of submissions
	// shares one program (see checker.CheckBatch), which is faster, and in
	// which code that breaks Go's memory safety could read classmates'
	// compiled code in its own process.
	Alone bool
	// Warm builds kurs's harness and the references once before the
	// first check, so that the parallel checks find them in the build
	// cache instead of all compiling them at once. It pays off for
	// batches, not for one submission with a warm cache.
	Warm bool
	// Progress, when set, is called each time a submission's last
	// exercise has been checked, with the number of submissions graded so
	// far. Calls never overlap.
	Progress func(done, total int)
}

// Result is one submission's grading.
type Result struct {
	report.Submission
	// Errs holds what kept kurs itself from checking an exercise, such as
	// a missing go command or a full disk. That exercise's result is an
	// error of kind internal, which the submission is not to blame for.
	// Errs is empty when kurs did its job, whatever the verdicts.
	Errs []*CheckError
}

// CheckError is kurs's own failure to check one exercise of a submission.
type CheckError struct {
	Submission string // the submission's id; "" when graded alone
	Exercise   string
	Err        error
}

func (e *CheckError) Error() string { return e.Where() + ": " + e.Err.Error() }

func (e *CheckError) Unwrap() error { return e.Err }

// Where names the exercise, and the submission when there is one:
// "alice/circuitbreaker".
func (e *CheckError) Where() string {
	if e.Submission == "" {
		return e.Exercise
	}
	return e.Submission + "/" + e.Exercise
}

// Run grades subs and returns their results in the same order, each with
// one explain.Graded per exercise in the order of g.Exercises.
//
// Checks of all submissions share Jobs slots, one check per slot; a check
// that hangs or blows up its memory holds its slot until the checker's
// limits end it, and affects no other check's result. Run returns an error
// only when ctx ends before every check is done.
func (g *Grader) Run(ctx context.Context, subs []Submission) ([]Result, error) {
	if g.Warm {
		// A failed warm-up only costs time: the checks meet the same
		// failure and report it.
		_ = g.Checker.Warm(ctx, g.Exercises)
	}
	jobs := g.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0) // follows a container's CPU limit
	}
	results := make([]Result, len(subs))
	for i, s := range subs {
		results[i].ID = s.ID
	}
	var (
		mu   sync.Mutex
		done int
		wg   sync.WaitGroup
	)
	slots := make(chan struct{}, jobs)
	// Submissions in chunks, so that finished submissions (and the
	// progress shown for them) come early and steadily: the exercises of
	// a chunk's submissions share one learner's program where they can,
	// linked once for the chunk (checker.CheckBatch), and each runs in a
	// process of its own.
	size := chunkSize(len(subs), jobs)
	if g.Alone {
		size = 1
	}
schedule:
	for first := 0; first < len(subs); first += size {
		chunk := subs[first:min(first+size, len(subs))]
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			break schedule
		}
		wg.Go(func() {
			defer func() { <-slots }()
			g.checkChunk(ctx, chunk, func(k int, graded []explain.Graded, errs []*CheckError) {
				mu.Lock()
				defer mu.Unlock()
				results[first+k].Graded, results[first+k].Errs = graded, errs
				done++
				if g.Progress != nil {
					g.Progress(done, len(subs))
				}
			})
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

// maxChunk bounds the submissions checked together: a chunk's progress
// shows when its build is done, and its link grows with it.
const maxChunk = 16

// chunkSize returns how many submissions of n to check together with
// jobs checks at once: enough to keep every slot busy, at most maxChunk.
func chunkSize(n, jobs int) int {
	return max(1, min(maxChunk, (n+jobs-1)/jobs))
}

// checkChunk checks the submissions subs together (see
// checker.CheckBatch) and calls done with each one's index in subs and
// its results as they are there. A submission with a time limit of its
// own is checked alone.
func (g *Grader) checkChunk(ctx context.Context, subs []Submission, done func(k int, graded []explain.Graded, errs []*CheckError)) {
	var batch [][]checker.Job
	var at []int // each batch entry's index in subs
	graded := make([][]explain.Graded, len(subs))
	places := make([][]int, len(subs)) // the exercises' indexes of their jobs
	for k, s := range subs {
		var jobs []checker.Job
		graded[k], jobs, places[k] = g.jobs(s)
		switch {
		case len(jobs) == 0:
			done(k, graded[k], nil)
		case s.timeout > 0:
			gr, errs := g.checkAll(ctx, s)
			done(k, gr, errs)
		default:
			batch, at = append(batch, jobs), append(at, k)
		}
	}
	if len(batch) == 0 {
		return
	}
	finished := make([]bool, len(batch))
	err := g.Checker.CheckBatch(ctx, batch, func(i int, results []*checker.Result, err error) {
		finished[i] = true
		k := at[i]
		gr, errs := g.finish(subs[k], graded[k], places[k], results, err)
		done(k, gr, errs)
	})
	if err == nil {
		return
	}
	for i, k := range at {
		if !finished[i] {
			gr, errs := g.finish(subs[k], graded[k], places[k], nil, err)
			done(k, gr, errs)
		}
	}
}

// jobs returns the graded exercises of a submission, each without its
// result unless the submission lacks its folder, and the jobs to check,
// each with its exercise's index in g.Exercises.
func (g *Grader) jobs(s Submission) ([]explain.Graded, []checker.Job, []int) {
	graded := make([]explain.Graded, len(g.Exercises))
	var jobs []checker.Job
	var at []int
	for j, ex := range g.Exercises {
		graded[j].Exercise = ex
		dir := filepath.Join(s.Dir, ex.ID)
		if !realDir(dir) {
			graded[j].Result = g.failed(ex, checker.ProblemNoFiles, "")
			continue
		}
		jobs, at = append(jobs, checker.Job{Exercise: ex, Dir: dir}), append(at, j)
	}
	return graded, jobs, at
}

// failed returns an error result of kind for ex.
func (g *Grader) failed(ex *course.Exercise, kind checker.ProblemKind, detail string) *checker.Result {
	seed := g.Checker.Seed
	if seed == 0 {
		seed = checker.DefaultSeed
	}
	return &checker.Result{Exercise: ex.ID, Status: checker.Error, MaxScore: ex.Points, Seed: seed,
		Problem: &checker.Problem{Kind: kind, Detail: detail}}
}

// checkAll checks every exercise of a submission together. A
// failure of kurs itself becomes a result of kind internal for each
// exercise, returned with an error for each.
func (g *Grader) checkAll(ctx context.Context, s Submission) ([]explain.Graded, []*CheckError) {
	graded, jobs, at := g.jobs(s)
	if len(jobs) == 0 {
		return graded, nil
	}
	ck := g.Checker
	if s.timeout > 0 {
		c := *ck
		c.Timeout = s.timeout
		ck = &c
	}
	results, err := ck.CheckAll(ctx, jobs)
	return g.finish(s, graded, at, results, err)
}

// finish puts the results of a submission's checked exercises, at their
// indexes at in graded; err, kurs's own failure, becomes a result of kind
// internal for each, with an error for each.
func (g *Grader) finish(s Submission, graded []explain.Graded, at []int, results []*checker.Result, err error) ([]explain.Graded, []*CheckError) {
	if err != nil {
		var errs []*CheckError
		for _, j := range at {
			ex := g.Exercises[j]
			graded[j].Result = g.failed(ex, checker.ProblemInternal, err.Error())
			errs = append(errs, &CheckError{Submission: s.ID, Exercise: ex.ID, Err: err})
		}
		return graded, errs
	}
	ws := &workspace.Workspace{Dir: s.Dir}
	for k, j := range at {
		steady(results[k])
		graded[j].Result = results[k]
		// An untouched skeleton is no attempt, as the session decides it
		// for kurs check; a file that cannot be compared is an attempt.
		graded[j].Untouched, _ = session.Untouched(ws, g.Exercises[j])
	}
	return graded, nil
}

// Document is the result document of a batch; see report.Batch.
type Document = report.Batch

// Entry is one submission's entry in a Document.
type Entry = report.Entry

// NewDocument builds the document of a batch graded with the course whose
// content hash is hash (see CourseHash) by the kurs build kurs (see
// report.Run.Kurs), in the exercises exs, with
// messages in p's language, written for the teacher (see
// explain.Teacher).
func NewDocument(p *i18n.Printer, hash, kurs string, seed uint64, exs []*course.Exercise, results []Result) *Document {
	doc := &Document{Version: report.Version, Course: hash, Kurs: kurs, Seed: seed, Lang: p.Lang(), ExerciseIDs: []string{}, Submissions: []Entry{}}
	for _, ex := range exs {
		doc.ExerciseIDs = append(doc.ExerciseIDs, ex.ID)
	}
	for _, r := range results {
		doc.Submissions = append(doc.Submissions, Entry{ID: r.ID, Document: report.NewDocumentFor(p, r.Graded, explain.Teacher)})
	}
	return doc
}

// Submissions returns the results as the report package takes them.
func Submissions(results []Result) []report.Submission {
	subs := make([]report.Submission, len(results))
	for i, r := range results {
		subs[i] = r.Submission
	}
	return subs
}

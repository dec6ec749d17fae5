// Package session is the learner's loop over a workspace: which exercises
// to check, checked together (each verdict from a program of its own), the
// outcome recorded as the learner's progress, and the last result of each
// exercise; and, for every front end, whether an exercise's files are
// still its skeleton. kurs check, kurs watch and kurs serve run their
// checks through a Session, so that they decide alike and record alike;
// they only render what it returns (with internal/explain) and take the
// learner's input.
//
// A Session does not render and does not watch files: internal/explain
// explains a result, internal/watch notices saves.
package session

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/workspace"
)

// Session checks the exercises of one workspace. Its methods may be called
// from several goroutines: checks of one exercise run one at a time, in
// the order they were asked for.
type Session struct {
	ws     *workspace.Workspace
	course *course.Course
	ck     *checker.Checker

	mu   sync.Mutex
	last map[string]*Outcome
	runs map[string]*sync.Mutex // held while the exercise is checked
	// begun holds the exercises Select found begun, for the Check that
	// follows it: their files are compared with the skeleton once.
	begun map[string]bool
}

// Outcome is one check of one exercise, as the session recorded it.
type Outcome struct {
	Exercise *course.Exercise
	Result   *checker.Result
	// At is when the check ended.
	At time.Time
	// Seq counts the checks of this exercise in this session, from 1.
	Seq int
	// Untouched says the files were the exercise's skeleton: a failure
	// was not recorded (see workspace.Outcome).
	Untouched bool
	// FirstPass says this check passed an exercise that had never passed.
	FirstPass bool
	// sum is the digest of the files checked (workspace.Digest).
	sum string
}

// New returns a session over ws, whose course is c, checking with ck; a
// nil ck is a checker with the defaults, for a front end that only reads
// where the learner stands and shows hints (kurs list, lesson, hint).
func New(ws *workspace.Workspace, c *course.Course, ck *checker.Checker) *Session {
	if ck == nil {
		ck = &checker.Checker{}
	}
	runs := make(map[string]*sync.Mutex, len(c.Exercises))
	for _, ex := range c.Exercises {
		runs[ex.ID] = new(sync.Mutex)
	}
	return &Session{ws: ws, course: c, ck: ck, last: map[string]*Outcome{}, runs: runs, begun: map[string]bool{}}
}

// Workspace returns the session's workspace.
func (s *Session) Workspace() *workspace.Workspace { return s.ws }

// Select returns the exercises to check of exs: all of them when the
// learner named them (asked), else only those whose files differ from
// their skeleton; untouched lists the others, which a check would only
// tell the learner what they know: that the skeleton does not pass yet.
// The Check of todo that follows trusts this comparison rather than
// making it again.
func (s *Session) Select(exs []*course.Exercise, asked bool) (todo, untouched []*course.Exercise, err error) {
	if asked {
		return exs, nil, nil
	}
	begun := map[string]bool{}
	for _, ex := range exs {
		u, err := Untouched(s.ws, ex)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", ex.ID, err)
		}
		if u {
			untouched = append(untouched, ex)
		} else {
			todo = append(todo, ex)
			begun[ex.ID] = true
		}
	}
	s.mu.Lock()
	s.begun = begun
	s.mu.Unlock()
	return todo, untouched, nil
}

// untouched reports whether the files of ex are its skeleton, from the
// last Select when it found ex begun (once used, the verdict is gone),
// else by comparing them.
func (s *Session) untouched(ex *course.Exercise) (bool, error) {
	s.mu.Lock()
	begun := s.begun[ex.ID]
	delete(s.begun, ex.ID)
	s.mu.Unlock()
	if begun {
		return false, nil
	}
	return Untouched(s.ws, ex)
}

// Untouched reports whether the files of ex in ws are its skeleton, byte
// for byte: no attempt yet, for which the explanation names no
// misconception and no failure is recorded. Check answers it in each
// Outcome; kurs grade, which checks submissions without a session (it
// keeps no progress in them), asks here, so that one rule decides both.
// Code that only behaves as the skeleton does is an attempt.
func Untouched(ws *workspace.Workspace, ex *course.Exercise) (bool, error) {
	return ws.Untouched(ex)
}

// Check checks exs with one build of the learner's program, records the
// outcomes as the learner's progress and returns them in the order of exs.
// An error means nothing could be checked: no go command, a cancelled
// context. A failure to record is a *RecordError, returned with the
// outcomes, which are complete.
func (s *Session) Check(ctx context.Context, exs []*course.Exercise) ([]Outcome, error) {
	if len(exs) == 0 {
		return nil, nil
	}
	// One check at a time per exercise; locks taken in the course's order
	// cannot deadlock with another Check.
	locked := slices.Clone(exs)
	slices.SortFunc(locked, func(a, b *course.Exercise) int { return s.index(a) - s.index(b) })
	locked = slices.Compact(locked)
	for _, ex := range locked {
		s.runs[ex.ID].Lock()
	}
	defer func() {
		for _, ex := range locked {
			s.runs[ex.ID].Unlock()
		}
	}()
	return s.check(ctx, exs, nil)
}

// CheckIfChanged checks ex unless its files are those of its last check in
// this session, and reports whether it checked. An editor that writes a
// file twice, or a page that saves what it just checked, costs no check.
func (s *Session) CheckIfChanged(ctx context.Context, ex *course.Exercise) (Outcome, bool, error) {
	return s.CheckSaved(ctx, ex, nil, nil)
}

// CheckSaved is CheckIfChanged for a save noticed on disk. started, when
// not nil, is called once no other check or Edit of ex runs, just before
// the files are read: every save before that moment is in what this check
// reads, so a front end that saw more saves meanwhile needs no check of
// its own for them. checking, when not nil, is called next if the files
// are not the ones last checked, as the check begins: files that were
// checked already (an editor that wrote twice, a front end's own save
// that it checked) are no news to announce.
func (s *Session) CheckSaved(ctx context.Context, ex *course.Exercise, started, checking func()) (Outcome, bool, error) {
	run := s.runs[ex.ID]
	run.Lock()
	defer run.Unlock()
	if started != nil {
		started()
	}
	sum := s.ws.Digest(ex.ID)
	s.mu.Lock()
	last := s.last[ex.ID]
	s.mu.Unlock()
	if last != nil && last.sum == sum {
		return *last, false, nil
	}
	if checking != nil {
		checking()
	}
	out, err := s.check(ctx, []*course.Exercise{ex}, []string{sum})
	if len(out) == 0 {
		return Outcome{}, false, err
	}
	return out[0], true, err
}

// Edit runs write, which changes the files of ex, while no check of ex
// runs in this session: a check reads the old files or the new ones, and
// one asked for after Edit returns reads the new ones. A front end that
// writes a learner's files (the page's editor, its quiz) writes them here.
func (s *Session) Edit(ex *course.Exercise, write func() error) error {
	run := s.runs[ex.ID]
	run.Lock()
	defer run.Unlock()
	return write()
}

// Last returns the last outcome of exercise id in this session.
func (s *Session) Last(id string) (Outcome, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o := s.last[id]; o != nil {
		return *o, true
	}
	return Outcome{}, false
}

// Remember keeps res as the last outcome of ex in this session, without
// a check and without recording progress: for a result that was made
// elsewhere, such as one a test lays out.
func (s *Session) Remember(ex *course.Exercise, res *checker.Result) Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := &Outcome{Exercise: ex, Result: res, At: time.Now(), Seq: 1}
	if prev := s.last[ex.ID]; prev != nil {
		o.Seq = prev.Seq + 1
	}
	s.last[ex.ID] = o
	return *o
}

// NextHint shows the learner the next hint of ex, counted in the progress.
func (s *Session) NextHint(ex *course.Exercise, lang string) (workspace.Hint, error) {
	return s.ws.NextHint(ex, lang)
}

// check checks exs, records and remembers the outcomes. sums, when not
// nil, are the digests of their files that the caller has just taken, so
// that a page's save hashes its files once. The caller holds the
// exercises' run locks.
func (s *Session) check(ctx context.Context, exs []*course.Exercise, sums []string) ([]Outcome, error) {
	out := make([]Outcome, len(exs))
	jobs := make([]checker.Job, len(exs))
	for i, ex := range exs {
		jobs[i] = checker.Job{Exercise: ex, Dir: s.ws.ExerciseDir(ex.ID)}
		out[i] = Outcome{Exercise: ex}
		if sums != nil {
			out[i].sum = sums[i] // the caller's digest, taken just before
		} else {
			out[i].sum = s.ws.Digest(ex.ID)
		}
		u, err := s.untouched(ex)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ex.ID, err)
		}
		out[i].Untouched = u
	}
	before, err := s.ws.Progress()
	if err != nil {
		return nil, err
	}
	results, err := s.ck.CheckAll(ctx, jobs)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	rec := make([]workspace.Outcome, len(exs))
	s.mu.Lock()
	for i, res := range results {
		o := &out[i]
		o.Result, o.At = res, now
		o.FirstPass = res.Status == checker.Pass && !before.State(o.Exercise.ID).HasPassed()
		if prev := s.last[o.Exercise.ID]; prev != nil {
			o.Seq = prev.Seq
		}
		o.Seq++
		kept := *o
		s.last[o.Exercise.ID] = &kept
		rec[i] = workspace.Outcome{Exercise: res.Exercise, Status: string(res.Status), Score: res.Score,
			MaxScore: res.MaxScore, Untouched: o.Untouched, Files: o.sum}
	}
	s.mu.Unlock()
	if err := s.ws.Record(rec...); err != nil {
		return out, &RecordError{Err: err}
	}
	return out, nil
}

// RecordError is the error of a check whose outcomes are complete but
// could not be recorded as the learner's progress (a full disk, a
// progress file that is not kurs's): a front end shows the outcomes, and
// the error beside them.
type RecordError struct{ Err error }

func (e *RecordError) Error() string { return "record the progress: " + e.Err.Error() }

// Unwrap returns the error of the recording.
func (e *RecordError) Unwrap() error { return e.Err }

// index is the position of ex in the course.
func (s *Session) index(ex *course.Exercise) int {
	return slices.Index(s.course.Exercises, ex)
}

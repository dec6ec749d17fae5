// Package try runs a trace that the learner wrote on the learner's code
// and on the reference solution, and compares the two programs' answers
// step by step: what `kurs try` prints and the exercise page's "Try a
// trace" panel shows. The reference's code is never shown; its behaviour
// on the trace is.
//
// A try records nothing: it is an experiment beside the graded check.
package try

import (
	"context"
	"fmt"
	"path"
	"sync"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/textsafe"
	"github.com/kurs-course/kurs/internal/workspace"
)

// Supported reports whether a learner can try traces on ex: only an
// exercise graded by traces of calls has an API to call.
func Supported(ex *course.Exercise) bool { return ex.Traits().Try }

// Comparison is what both programs answered to a trace, step by step.
type Comparison struct {
	// Observe is what the exercise observes after each call, e.g.
	// "State()".
	Observe string
	// Rows are New and then each step that at least one program reached.
	Rows []Row
	// First is the first row whose answers differ (0: New), or -1.
	First int
	// Problem, when set, says why the learner's code did not run: its
	// files are missing, refused or do not build, or it crashed before
	// it was ready. Rows is empty then.
	Problem *checker.Problem
}

// Row is one call of the trace with both answers.
type Row struct {
	// Step numbers the calls after New from 1; New is 0.
	Step int
	// Call is the call as written, e.g. "Failure(0)".
	Call      string
	Mine, Ref Answer
	// Differs reports that the learner's answer is not the reference's.
	Differs bool
}

// Answer is what one program did at one step.
type Answer struct {
	// Result is what the call returned and what was observed after it;
	// nil when the call did not return (see Panicked and Stopped) or the
	// program never got to it.
	Result *harness.Result
	// Panicked reports that the call, or the observation after it,
	// panicked with the value Panic.
	Panicked bool
	Panic    string
	// Frame is where the learner's code panicked, relative to the
	// workspace; it is never set for the reference.
	Frame string
	// Stopped reports that the program stopped answering here: an endless
	// loop past the time limit, or a crash.
	Stopped bool
}

// Text returns the answer as both front ends show it, in p's language
// ("not reached" for a step the program never got to),
// with learner-controlled values bounded and escaped; observe is the
// Comparison's.
func (a Answer) Text(p *i18n.Printer, observe string) string {
	switch {
	case a.Result != nil:
		return explain.Side(p, observe, *a.Result)
	case a.Panicked && a.Frame != "":
		return p.T("try.panic_at", "Value", textsafe.Line(p, a.Panic, textsafe.ValueMax),
			"Frame", textsafe.Line(p, a.Frame, textsafe.ValueMax))
	case a.Panicked:
		return p.T("try.panic", "Value", textsafe.Line(p, a.Panic, textsafe.ValueMax))
	case a.Stopped:
		return p.T("try.stopped")
	}
	// After a panic or a stop the program never got here; an empty cell
	// beside the reference's answer read as an answer of nothing.
	return p.T("try.not_reached")
}

// Summary says in one sentence, in p's language, whether and where the
// answers differ.
func (c *Comparison) Summary(p *i18n.Printer) string {
	switch {
	case c.First == 0:
		return p.T("try.differ_new")
	case c.First > 0:
		return p.T("try.differ", "Step", c.First)
	}
	return p.T("try.same")
}

// Files reads the learner's files of ex in ws, as a check reads them.
func Files(ws *workspace.Workspace, ex *course.Exercise) ([]course.File, error) {
	names, err := ws.Sources(ex.ID)
	if err != nil {
		return nil, err
	}
	var out []course.File
	for _, n := range names {
		data, err := workspace.ReadFileMax(ws.Dir+"/"+n, workspace.MaxBackupFile)
		if err != nil {
			return nil, err
		}
		out = append(out, course.File{Name: path.Base(n), Data: data})
	}
	return out, nil
}

// Run runs tr on the learner's files mine and on the reference at the
// same time, each program within timeout once it has started
// (checker.DefaultTimeout when 0), and compares their answers. ck builds
// and starts the programs. An error means that the reference did not
// answer (kurs itself is broken) or that ctx ended.
func Run(ctx context.Context, ck *checker.Checker, ex *course.Exercise, mine []course.File, tr harness.Trace, timeout time.Duration) (*Comparison, error) {
	if len(mine) == 0 {
		return &Comparison{First: -1, Problem: &checker.Problem{Kind: checker.ProblemNoFiles}}, nil
	}
	if timeout <= 0 {
		timeout = checker.DefaultTimeout
	}
	ref, err := ex.Solution()
	if err != nil {
		return nil, err
	}
	// The first build in a fresh cache compiles the standard library, for
	// which a build of learner code has too little time: Warm does it
	// within the course's own limit (and costs little once done).
	if err := ck.Warm(ctx, []*course.Exercise{ex}); err != nil {
		return nil, err
	}
	// Observations typed as calls (State()) are not sent: the programs
	// observe after every call anyway, and compare shows what they saw.
	api := APIOf(ex)
	sent := harness.Trace{New: tr.New}
	for _, s := range tr.Steps {
		if !api.IsObservation(s.Call) {
			sent.Steps = append(sent.Steps, s)
		}
	}
	var runs [2]tried
	var wg sync.WaitGroup
	for i, files := range [][]course.File{mine, ref} {
		wg.Go(func() { runs[i] = runTrace(ctx, ck, ex, files, sent, timeout) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r := runs[1]; r.err != nil || r.problem != nil {
		err := r.err
		if err == nil {
			err = fmt.Errorf("%s", explain.Problem(i18n.New("en"), r.problem))
		}
		return nil, fmt.Errorf("the reference of %s: %w", ex.ID, err)
	}
	if r := runs[0]; r.err != nil || r.problem != nil {
		if r.err != nil {
			return nil, r.err
		}
		return &Comparison{First: -1, Problem: r.problem}, nil
	}
	return compare(tr, api.IsObservation, observeOf(ex), runs[0], runs[1]), nil
}

// tried is what one program did on the trace.
type tried struct {
	reply   harness.Reply
	stopped bool // the program stopped answering (a crash, the time limit)
	problem *checker.Problem
	err     error
}

// runTrace builds a test program with files as the exercise's package and
// runs the trace on it, within timeout once it has started.
func runTrace(ctx context.Context, ck *checker.Checker, ex *course.Exercise, files []course.File, tr harness.Trace, timeout time.Duration) tried {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s, p, err := ck.Serve(ctx, ex, files)
	if err != nil || p != nil {
		return tried{problem: p, err: err}
	}
	defer s.Close()
	// The program is killed when ctx ends, which ends Run.
	stop := time.AfterFunc(timeout, cancel)
	defer stop.Stop()
	var t tried
	err = s.Run([]harness.Trace{tr}, func(_ int, r harness.Reply) bool {
		t.reply = r
		return true
	})
	if err != nil {
		// What arrived of the trace before the program stopped answering.
		t.stopped = true
		_, t.reply, _ = s.Where()
	}
	return t
}

// compare puts both programs' answers side by side. The programs ran tr
// without its observations (isObs); an observation's row shows what was
// observed after the call before it.
func compare(tr harness.Trace, isObs func(string) bool, observe string, mine, ref tried) *Comparison {
	c := &Comparison{Observe: observe, First: -1}
	sent := 0 // the steps the programs ran so far
	for i := 0; i <= len(tr.Steps); i++ {
		row := Row{Step: i, Call: harness.FormatCall("New", tr.New)}
		obs := false
		if i > 0 {
			s := tr.Steps[i-1]
			row.Call = harness.FormatCall(s.Call, s.Args)
			obs = isObs(s.Call)
			if !obs {
				sent++
			}
		}
		row.Mine, row.Ref = answerAt(mine, sent, true), answerAt(ref, sent, false)
		if obs {
			row.Mine, row.Ref = observed(row.Mine), observed(row.Ref)
		}
		if row.Mine.none() && row.Ref.none() {
			break
		}
		row.Differs = !same(row.Mine, row.Ref)
		if row.Differs && c.First < 0 {
			c.First = i
		}
		c.Rows = append(c.Rows, row)
	}
	return c
}

// answerAt returns what a program did at step i; the frame of a panic is
// kept only for the learner's code.
func answerAt(t tried, i int, learner bool) Answer {
	switch r := t.reply; {
	case i < len(r.Results):
		return Answer{Result: &r.Results[i]}
	case r.Panicked && r.PanicStep == i:
		a := Answer{Panicked: true, Panic: r.Panic}
		if learner {
			a.Frame = explain.Frame(r.Frame)
		}
		return a
	case t.stopped && i == len(r.Results) && !r.Panicked:
		return Answer{Stopped: true}
	}
	return Answer{}
}

// observed is the answer to an observation typed as a call, given the
// answer of the call before it: its observation and no return value; a
// program that panicked or stopped there never got to it.
func observed(before Answer) Answer {
	if before.Result == nil {
		return Answer{}
	}
	return Answer{Result: &harness.Result{Obs: before.Result.Obs}}
}

// none reports that the program never got to the step.
func (a Answer) none() bool { return a.Result == nil && !a.Panicked && !a.Stopped }

// same reports whether two answers agree: the same values, or the same
// panic, or both stopped.
func same(a, b Answer) bool {
	if a.Result != nil || b.Result != nil {
		return a.Result != nil && b.Result != nil && explain.SameResult(*a.Result, *b.Result)
	}
	return a.Panicked == b.Panicked && a.Panic == b.Panic && a.Stopped == b.Stopped
}

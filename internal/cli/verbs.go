package cli

import (
	"flag"
	"fmt"
	"path"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/workspace"
)

func initVerb() *verb {
	noWarm := false
	return &verb{name: "init", flags: func(fs *flag.FlagSet) {
		fs.BoolVar(&noWarm, "no-warm", false, "")
	}, run: func(e *env, args []string) int {
		if len(args) != 1 {
			return e.usage("error.init_args")
		}
		dir, err := e.abs(args[0])
		if err != nil {
			return e.setupError(err)
		}
		// An existing workspace keeps its settings: re-running init only
		// restores missing files, in the workspace's language.
		existing, _ := workspace.Open(dir)
		if existing != nil && existing.Config.Lang != "" {
			e.p = i18n.New(existing.Config.Lang)
		}
		c, err := e.course(existing)
		if err != nil {
			return e.setupError(err)
		}
		// kurs.toml records the language only when the learner chose it
		// (--lang or KURS_LANG); otherwise the locale keeps deciding.
		cfg := workspace.Config{Course: "embedded"}
		if l := e.g.lang; i18n.Supported(l) {
			cfg.Lang = l
		} else if l := e.Getenv("KURS_LANG"); i18n.Supported(l) {
			cfg.Lang = l
		}
		if e.g.course != "" {
			abs, _ := e.abs(e.g.course)
			cfg.Course = abs
		}
		created, kept, err := workspace.Init(dir, c, cfg, e.p.Lang())
		if err != nil {
			return e.setupError(err)
		}
		if len(created) == 0 {
			fmt.Fprintln(e.Out, e.p.T("init.nothing", "Dir", args[0]))
			return ExitOK
		}
		if existing != nil {
			fmt.Fprintln(e.Out, e.p.T("init.restored", "Dir", args[0], "Count", len(created)))
			for _, k := range kept {
				if strings.HasSuffix(k, ".go") {
					fmt.Fprintln(e.Out, "  "+e.p.T("init.kept", "File", k))
				}
			}
		} else {
			fmt.Fprintln(e.Out, e.p.T("init.created", "Dir", args[0], "Count", len(c.Exercises), "Lang", e.p.Lang()))
		}
		tw := tabwriter.NewWriter(e.Out, 0, 0, 2, ' ', 0)
		for _, ex := range c.Exercises {
			for _, f := range created {
				if path.Dir(f) == ex.ID {
					fmt.Fprintf(tw, "  + %s\t%s\n", f, ex.Title.In(e.p.Lang()))
				}
			}
		}
		tw.Flush()
		if !noWarm {
			// The first build of the standard library takes seconds; pay it
			// now rather than at the learner's first check.
			fmt.Fprintln(e.Err, e.p.T("init.warming"))
			if err := (&checker.Checker{}).Warm(e.ctx, c.Exercises); err != nil {
				fmt.Fprintln(e.Err, e.p.T("init.warm_failed", "Err", err))
			}
		}
		fmt.Fprintln(e.Out, e.p.T("init.next", "Dir", args[0]))
		return ExitOK
	}}
}

func listVerb() *verb {
	return &verb{name: "list", run: func(e *env, args []string) int {
		if len(args) != 0 {
			return e.usage("error.no_args", "Verb", "list")
		}
		ws, err := e.workspace()
		if err != nil {
			return e.setupError(err)
		}
		c, err := e.course(ws)
		if err != nil {
			return e.setupError(err)
		}
		prog, err := ws.Progress()
		if err != nil {
			return e.setupError(err)
		}
		lang := e.p.Lang()
		passed, score, maxScore := 0, 0, 0
		tw := tabwriter.NewWriter(e.Out, 0, 0, 2, ' ', 0)
		for _, l := range c.Lessons {
			fmt.Fprintf(tw, "%s\n", l.Title.In(lang))
			for _, ex := range c.Exercises {
				if ex.Lesson != l.ID {
					continue
				}
				st := prog.Exercises[ex.ID]
				state := e.p.T("list.not_started")
				mark := "·"
				switch {
				case st != nil && st.Status == string(checker.Pass):
					state, mark = e.p.T("list.passed"), "✓"
					passed++
				case st != nil && st.Status != "":
					state, mark = e.p.T("list.failing"), "✗"
				}
				s := 0
				if st != nil {
					s = st.Score
				}
				score += s
				maxScore += ex.Points
				fmt.Fprintf(tw, "  %s %s\t%s\t%s\t%s\n", mark, ex.ID, ex.Title.In(lang), state,
					e.p.T("result.points", "Score", s, "Max", ex.Points))
			}
		}
		tw.Flush()
		fmt.Fprintln(e.Out, e.p.T("list.progress", "Passed", passed, "Total", len(c.Exercises), "Score", score, "Max", maxScore))
		return ExitOK
	}}
}

// checkFlags are the flags of check and grade.
type checkFlags struct {
	verbose bool
	seed    uint64
	timeout time.Duration
	format  string
}

func (f *checkFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.verbose, "v", false, "")
	fs.BoolVar(&f.verbose, "verbose", false, "")
	fs.Uint64Var(&f.seed, "seed", checker.DefaultSeed, "")
	fs.DurationVar(&f.timeout, "timeout", checker.DefaultTimeout, "")
}

func checkVerb() *verb {
	f := &checkFlags{}
	return &verb{name: "check", flags: f.register, run: func(e *env, args []string) int {
		ws, graded, code := e.runChecks(f, args)
		if graded == nil {
			return code
		}
		if err := e.record(ws, graded); err != nil {
			fmt.Fprintln(e.Err, e.p.T("error.progress", "Err", err))
		}
		_ = report.Text(e.Out, e.p, graded, f.verbose)
		return code
	}}
}

// runChecks checks the named exercises (all when none are named) of the
// workspace. graded is nil when nothing could be checked; code is the exit
// code either way.
func (e *env) runChecks(f *checkFlags, names []string) (*workspace.Workspace, []report.Graded, int) {
	ws, err := e.workspace()
	if err != nil {
		return nil, nil, e.setupError(err)
	}
	c, err := e.course(ws)
	if err != nil {
		return nil, nil, e.setupError(err)
	}
	exs, err := e.exercises(c, names)
	if err != nil {
		return nil, nil, e.setupError(err)
	}
	ck := &checker.Checker{Seed: f.seed, Timeout: f.timeout}
	graded := make([]report.Graded, len(exs))
	errs := make([]error, len(exs))
	// One check per core at a time: a whole course is checked in a
	// fraction of the time, and the report keeps the course's order.
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.NumCPU())
	for i, ex := range exs {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			res, err := ck.Check(e.ctx, ex, ws.ExerciseDir(ex.ID))
			graded[i], errs[i] = report.Graded{Exercise: ex, Result: res}, err
		})
	}
	wg.Wait()
	code := ExitOK
	for i, err := range errs {
		if err != nil {
			if e.ctx.Err() != nil {
				fmt.Fprintln(e.Err, e.p.T("error.interrupted"))
				return nil, nil, ExitUsage
			}
			return nil, nil, e.setupError(err)
		}
		if graded[i].Result.Status != checker.Pass {
			code = ExitFail
		}
	}
	return ws, graded, code
}

// record stores the results as the learner's progress.
func (e *env) record(ws *workspace.Workspace, graded []report.Graded) error {
	p, err := ws.Progress()
	if err != nil {
		return err
	}
	for _, g := range graded {
		ep := p.Of(g.Result.Exercise)
		ep.Status, ep.Score, ep.MaxScore, ep.Checked = string(g.Result.Status), g.Result.Score, g.Result.MaxScore, time.Now().UTC().Truncate(time.Second)
		ep.Passed = ep.Passed || g.Result.Status == checker.Pass
	}
	return ws.SaveProgress(p)
}

func hintVerb() *verb {
	return &verb{name: "hint", run: func(e *env, args []string) int {
		if len(args) != 1 {
			return e.usage("error.hint_args")
		}
		ws, err := e.workspace()
		if err != nil {
			return e.setupError(err)
		}
		c, err := e.course(ws)
		if err != nil {
			return e.setupError(err)
		}
		exs, err := e.exercises(c, args)
		if err != nil {
			return e.setupError(err)
		}
		ex := exs[0]
		hints := ex.Hints[e.p.Lang()]
		if len(hints) == 0 {
			hints = ex.Hints["en"]
		}
		if len(hints) == 0 {
			fmt.Fprintln(e.Out, e.p.T("hint.none", "Exercise", ex.ID))
			return ExitOK
		}
		prog, err := ws.Progress()
		if err != nil {
			return e.setupError(err)
		}
		ep := prog.Of(ex.ID)
		n := min(ep.HintsSeen+1, len(hints))
		fmt.Fprintln(e.Out, e.p.T("hint.header", "N", n, "Total", len(hints), "Exercise", ex.ID))
		fmt.Fprintln(e.Out, hints[n-1])
		if n == len(hints) {
			fmt.Fprintln(e.Out, e.p.T("hint.last"))
		}
		if n > ep.HintsSeen {
			ep.HintsSeen = n
			if err := ws.SaveProgress(prog); err != nil {
				fmt.Fprintln(e.Err, e.p.T("error.progress", "Err", err))
			}
		}
		return ExitOK
	}}
}

func helpVerb() *verb {
	return &verb{name: "help", run: func(e *env, args []string) int {
		if len(args) == 0 {
			fmt.Fprintln(e.Out, e.p.T("help.usage"))
			return ExitOK
		}
		for _, v := range verbs() {
			if v.name == args[0] {
				fmt.Fprintln(e.Out, e.p.T("help."+v.name))
				return ExitOK
			}
		}
		return e.usage("error.unknown_verb", "Verb", args[0])
	}}
}

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path"
	"runtime/debug"
	"strings"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/session"
	"github.com/kurs-course/kurs/internal/termdoc"
	"github.com/kurs-course/kurs/internal/workspace"
)

// initOptions are the options of kurs init.
type initOptions struct {
	noWarm bool // leave Go's build cache as it is
}

func initVerb() *verb {
	return command("init", func(o *initOptions, fs *flag.FlagSet) {
		fs.BoolVar(&o.noWarm, "no-warm", false, "")
	}, initWorkspace)
}

// initWorkspace creates the workspace args[0], or adds what it lacks.
func initWorkspace(e *env, o *initOptions, args []string) error {
	if len(args) != 1 {
		return e.usageErr("error.init_args")
	}
	dir, err := e.abs(args[0])
	if err != nil {
		return err
	}
	// An existing workspace keeps its settings: re-running init only
	// restores missing files, in the workspace's language.
	// The messages follow --lang and KURS_LANG before it.
	existing, _ := workspace.Open(dir)
	lang := e.p.Lang()
	if existing != nil && existing.Config.Lang != "" {
		lang = existing.Config.Lang
		e.p = i18n.New(i18n.Choose(e.g.lang, lang, e.Getenv))
	}
	c, err := e.course(existing)
	if err != nil {
		return err
	}
	// kurs.toml records the language the skeletons are written in,
	// whatever chose it (--lang, KURS_LANG or the locale), so that later
	// verbs answer in it from any shell.
	cfg := workspace.Config{Course: "embedded", Lang: lang}
	if e.g.course != "" {
		abs, _ := e.abs(e.g.course)
		cfg.Course = abs
	}
	created, kept, err := workspace.Init(dir, c, cfg, lang)
	if err != nil {
		return err
	}
	if len(created) == 0 {
		e.say("init.nothing", "Dir", args[0])
		return nil
	}
	if existing != nil {
		e.say("init.restored", "Dir", args[0], "Count", len(created))
		for _, k := range kept {
			if strings.HasSuffix(k, ".go") {
				e.stdout().Println("  " + e.p.T("init.kept", "File", k))
			}
		}
	} else {
		e.say("init.created", "Dir", args[0], "Count", len(c.Exercises), "Lang", e.p.Lang())
	}
	var files [][2]string
	for _, ex := range c.Exercises {
		for _, f := range created {
			if path.Dir(f) == ex.ID {
				files = append(files, [2]string{f, ex.Title.In(e.p.Lang())})
			}
		}
	}
	io.WriteString(e.Out, layoutFiles(files, e.stdout().TextWidth()))
	if !o.noWarm {
		// The first build of the standard library takes seconds; pay it
		// now rather than at the learner's first check.
		e.sayErr("init.warming")
		e.warming = true
		err := (&checker.Checker{Build: e.builder()}).Warm(e.ctx, c.Exercises)
		e.warming = false
		if err != nil {
			e.sayErr("init.warm_failed", "Err", err)
		}
	}
	e.say("init.next", "Dir", args[0])
	return nil
}

func listVerb() *verb { return command("list", nil, list) }

// list shows every exercise of the course with where the learner stands,
// and the progress across the course.
func list(e *env, _ *noOptions, args []string) error {
	if len(args) != 0 {
		return e.usageErr("error.no_args", "Verb", "list")
	}
	ws, c, err := e.openCourse()
	if err != nil {
		return err
	}
	standing, err := session.ReadStanding(ws, c)
	if err != nil {
		return err
	}
	lang := e.p.Lang()
	quiz := false
	var lessons []listLesson
	for _, l := range c.Lessons {
		ll := listLesson{title: l.Title.In(lang)}
		for _, ex := range c.Exercises {
			if ex.Lesson != l.ID {
				continue
			}
			quiz = quiz || ex.Traits().Scoring == course.PerCase
			st := standing.State(ex)
			ll.rows = append(ll.rows, listRow{mark: st.Mark(), id: ex.ID, title: ex.Title.In(lang), state: e.p.T("list." + string(st)),
				points: e.p.T("result.points", "Score", standing.Points(ex), "Max", ex.Points)})
		}
		lessons = append(lessons, ll)
	}
	io.WriteString(e.Out, layoutList(lessons, e.stdout().TextWidth()))
	e.stdout().Println(e.progressLine(standing))
	if quiz {
		e.say("list.scoring_quiz")
	} else {
		e.say("list.scoring")
	}
	return nil
}

// progressLine is the learner's progress across the course: the
// exercises passed (once is enough) and the points earned.
func (e *env) progressLine(st *session.Standing) string {
	t := st.Totals()
	return e.p.T("list.progress", "Passed", t.Passed, "Total", t.Exercises, "Score", t.Score, "Max", t.Max)
}

// checkFlags are the flags of check, watch and grade.
type checkFlags struct {
	verbose bool
	full    bool // every step of a trace (check only)
	seed    uint64
	timeout time.Duration
}

func (f *checkFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.verbose, "v", false, "")
	fs.BoolVar(&f.verbose, "verbose", false, "")
	fs.Uint64Var(&f.seed, "seed", checker.DefaultSeed, "")
	fs.DurationVar(&f.timeout, "timeout", checker.DefaultTimeout, "")
}

func checkVerb() *verb {
	return command("check", func(f *checkFlags, fs *flag.FlagSet) {
		f.register(fs)
		fs.BoolVar(&f.full, "full", false, "")
	}, check)
}

// check checks the named exercises, or every one the learner has begun,
// records the results and explains them.
func check(e *env, f *checkFlags, names []string) error {
	// A check allocates a few megabytes and is done in a second: the
	// collector's work on them cost more than the memory it would save.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	ws, c, exs, err := e.openNamed(names)
	if err != nil {
		return err
	}
	s := session.New(ws, c, &checker.Checker{Build: e.builder(), Seed: f.seed, Timeout: f.timeout, Reuse: true,
		Progress: func(id string, st checker.Stage) {
			e.sayErr("check.stage."+string(st), "Exercise", id)
		}})
	todo, untouched, err := s.Select(exs, len(names) > 0)
	if err != nil {
		return err
	}
	if len(todo) == 0 {
		e.say("check.nothing_begun", "Exercise", untouched[0].ID)
		return nil
	}
	outs, err := s.Check(e.ctx, todo)
	var rec *session.RecordError
	if errors.As(err, &rec) {
		fmt.Fprintln(e.Err, e.p.T("error.progress", "Err", rec.Err))
	} else if err != nil {
		return err
	}
	graded := gradedOf(outs)
	if err := explain.WriteText(e.Out, e.p, graded, explain.TextOptions{Verbose: f.verbose, Full: f.full, Color: e.stdout().Color(), Width: e.stdout().TextWidth()}); err != nil {
		return err
	}
	if len(untouched) > 0 {
		ids := make([]string, len(untouched))
		for i, ex := range untouched {
			ids[i] = ex.ID
		}
		e.say("check.not_begun", "Count", len(ids), "Exercises", strings.Join(ids, ", "))
	}
	return failed(graded)
}

// gradedOf returns the outcomes as report explains them.
func gradedOf(outs []session.Outcome) []explain.Graded {
	graded := make([]explain.Graded, len(outs))
	for i, o := range outs {
		graded[i] = explain.Graded{Exercise: o.Exercise, Result: o.Result, Untouched: o.Untouched}
	}
	return graded
}

// failed returns errFailed when an exercise does not pass, else nil.
func failed(graded []explain.Graded) error {
	for _, g := range graded {
		if g.Result.Status != checker.Pass {
			return errFailed
		}
	}
	return nil
}

func hintVerb() *verb { return command("hint", nil, hint) }

// hint shows the next hint of an exercise and counts it as seen.
func hint(e *env, _ *noOptions, args []string) error {
	if len(args) != 1 {
		return e.usageErr("error.hint_args")
	}
	ws, c, exs, err := e.open(args)
	if err != nil {
		return err
	}
	ex := exs[0]
	h, err := session.New(ws, c, nil).NextHint(ex, e.p.Lang())
	if h.Total == 0 {
		e.say("hint.none", "Exercise", ex.ID)
		return nil
	}
	e.say("hint.header", "N", h.N, "Total", h.Total, "Exercise", ex.ID)
	_ = termdoc.Render(e.Out, []byte(h.Text), e.screen().text()) // wrapped like the lesson
	if h.Last() {
		e.say("hint.last")
	}
	if err != nil {
		e.sayErr("error.progress", "Err", err)
	}
	return nil
}

func helpVerb() *verb {
	v := command("help", nil, help)
	v.quick = true
	return v
}

// help explains kurs, or one verb, in the learner's language.
func help(e *env, _ *noOptions, args []string) error {
	e.settleLang()
	if len(args) == 0 {
		fmt.Fprintln(e.Out, e.usageText())
		return nil
	}
	for _, v := range verbs() {
		if v.name == args[0] {
			fmt.Fprintln(e.Out, v.helpText(e))
			return nil
		}
	}
	return e.usageErr("error.unknown_verb", "Verb", args[0])
}

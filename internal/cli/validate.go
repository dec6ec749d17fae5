package cli

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/term"
	"github.com/kurs-course/kurs/internal/validate"
)

// validateOptions are the options of kurs validate.
type validateOptions struct {
	mutants bool // also count the mutants the hidden tests kill
	// signatures records the misconceptions' signatures in the course.
	signatures bool
	jobs       int
	timeout    time.Duration
	// noReuse runs every program again, even one whose inputs are those
	// of an earlier run.
	noReuse bool
}

func validateVerb() *verb {
	return command("validate", func(o *validateOptions, fs *flag.FlagSet) {
		fs.BoolVar(&o.mutants, "mutants", false, "")
		fs.BoolVar(&o.signatures, "signatures", false, "")
		fs.IntVar(&o.jobs, "j", runtime.NumCPU(), "")
		fs.DurationVar(&o.timeout, "timeout", checker.DefaultTimeout, "")
		fs.BoolVar(&o.noReuse, "no-reuse", false, "")
	}, validateCourse)
}

// validateCourse checks a course for its authors and lists every problem,
// each with its file and line.
func validateCourse(e *env, o *validateOptions, args []string) error {
	if len(args) != 0 {
		return e.usageErr("error.no_args", "Verb", "validate")
	}
	fsys, err := e.courseFS()
	if err != nil {
		return err
	}
	if o.signatures && e.courseDir() == "" {
		// The embedded course cannot be written to: say so before the
		// checks, which take minutes.
		return e.usageErr("validate.signatures_course")
	}
	progress, stop := e.validateProgress()
	// An author validates again after each fix, as a learner checks
	// again after each save: a run of a program whose inputs did not
	// change (the exercise's content, the files, the toolchain, kurs, the
	// seed, the limits) gives its kept outcome, unless --no-reuse asks
	// for every program to run again.
	rep, err := validate.Run(e.ctx, fsys, validate.Options{
		Checker: &checker.Checker{Build: e.builder(), Timeout: o.timeout, Reuse: !o.noReuse}, Jobs: o.jobs, Mutants: o.mutants,
		Progress: progress,
	})
	stop()
	if err != nil {
		return err // exit says "interrupted" once the context has ended
	}
	files := map[string]bool{}
	for _, p := range rep.Problems {
		e.sayHanging(e.problemText(p), 2)
		files[p.File] = true
	}
	if o.mutants {
		e.mutantReport(rep, o.jobs)
	}
	if err := e.misconceptionReport(rep, o.signatures); err != nil {
		return err
	}
	if rep.Reused > 0 {
		// An author who doubts a kept result learns how to run it again.
		e.say("validate.summary_reused", "Reused", rep.Reused, "Runs", rep.Runs)
	}
	if n := len(rep.Problems); n > 0 {
		e.say("validate.summary_problems", "Count", n, "Files", len(files))
		return errFailed
	}
	e.say("validate.summary_ok", "Lessons", rep.Lessons, "Exercises", rep.Exercises)
	return nil
}

// courseFS returns the course to validate or extend: --course, else the
// workspace's course when one is found, else the embedded one. Unlike
// env.course it does not load the course, whose problems are validate's to
// report.
func (e *env) courseFS() (fs.FS, error) {
	dir := e.courseDir()
	if dir == "" {
		return kurs.Content(), nil
	}
	abs, err := e.abs(dir)
	if err != nil {
		return nil, err
	}
	// A folder without lessons/ and exercises/ is no course at all, not a
	// course with problems.
	_, lerr := os.Stat(filepath.Join(abs, "lessons"))
	_, xerr := os.Stat(filepath.Join(abs, "exercises"))
	if lerr != nil && xerr != nil {
		return nil, &usageError{e.p.T("error.course_dir", "Dir", abs)}
	}
	return os.DirFS(abs), nil
}

// courseDir returns the folder of the course to validate or extend, as
// the author named it: --course, else the workspace's course when one is
// found; "" means the embedded one.
func (e *env) courseDir() string {
	if e.g.course != "" {
		return e.g.course
	}
	if ws, err := e.workspace(); err == nil && ws.Config.Course != "" && ws.Config.Course != "embedded" {
		return ws.Config.Course
	}
	return ""
}

// problemText explains a problem as "file:line: message", with its detail
// indented below.
func (e *env) problemText(p validate.Problem) string {
	args := make([]any, len(p.Args))
	copy(args, p.Args)
	gen, adj := "", ""
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case "Lang":
			// German inflects an adjective ("das englische Gerüst").
			adj = e.p.T(key("validate.lang_adj_", args[i+1]))
			args[i+1] = e.p.T(key("validate.lang_", args[i+1]))
		case "Why":
			args[i+1] = e.p.T(key("validate.why_", args[i+1]))
		case "Gen":
			gen = fmt.Sprint(args[i+1])
		}
	}
	if adj != "" {
		args = append(args, "LangAdj", adj)
	}
	if gen != "" {
		args = []any{"Detail", e.p.T(key("validate.gen_", gen), args...)}
	}
	msg := e.p.T(key("validate.problem_", p.Kind), args...)
	var b strings.Builder
	switch {
	case p.File != "" && p.Line > 0:
		fmt.Fprintf(&b, "%s:%d: %s", p.File, p.Line, msg)
	case p.File != "":
		fmt.Fprintf(&b, "%s: %s", p.File, msg)
	default:
		b.WriteString(msg)
	}
	detail := p.Detail
	if f := p.Failure; f != nil {
		switch {
		case f.Test != nil:
			// The detail stands four columns in.
			detail = explain.TestWidth(e.p, f.Exercise, f.Result, f.Test, max(e.stdout().TextWidth()-4, 0))
		case f.Result != nil && f.Result.Problem != nil:
			pr := *f.Result.Problem
			pr.File, pr.Line = p.File, p.Line
			if p.Detail != "" {
				pr.Detail = p.Detail
			}
			detail = explain.Problem(e.p, &pr)
		}
	}
	if detail = strings.TrimRight(detail, "\n"); detail != "" {
		b.WriteString("\n    " + strings.ReplaceAll(detail, "\n", "\n    "))
	}
	if p.Kind == validate.MutantSurvives {
		b.WriteString("\n    " + e.p.T("validate.mutant_mark", "File", markFile(p), "Mutant", fmt.Sprintf("%q", mutantID(p))))
	}
	return b.String()
}

// sayHanging writes s to the output as say does, but the further lines
// of its first line indented by indent, deeper than the first line
// starts: each problem stays apart from the next, whose first line starts
// further left. The lines after the first are wrapped as Println wraps
// them.
func (e *env) sayHanging(s string, indent int) {
	t := e.stdout()
	first, rest, more := strings.Cut(s, "\n")
	if w := t.TextWidth(); w > 0 {
		// Wrapped as kurs check wraps its own lines: never inside the
		// problem's FILE:LINE, which an editor follows only whole.
		words := strings.TrimLeft(first, " ")
		lead := first[:len(first)-len(words)]
		first = strings.Join(explain.WrapHanging(words, lead, strings.Repeat(" ", indent), w), "\n")
	}
	if more {
		first += "\n" + t.Fit(rest)
	}
	fmt.Fprintln(e.Out, first)
}

// key joins a message id from a prefix and a name known only at run time;
// validate's tests check that every such id exists in both catalogs.
func key(prefix string, name any) string { return prefix + fmt.Sprint(name) }

func markFile(p validate.Problem) string { return argOf(p, "Marks") }

func mutantID(p validate.Problem) string { return argOf(p, "Mutant") }

func argOf(p validate.Problem, key string) string {
	for i := 0; i+1 < len(p.Args); i += 2 {
		if p.Args[i] == key {
			return fmt.Sprint(p.Args[i+1])
		}
	}
	return ""
}

// mutantReport prints, per exercise, how many mutants the hidden tests
// kill, and the mutation score with the time it took.
func (e *env) mutantReport(rep *validate.Report, jobs int) {
	e.say("validate.mutants_header")
	for _, s := range rep.Mutants {
		switch {
		case s.Skipped != "":
			e.mutantRow(s.Exercise, e.p.T(key("validate.mutants_skipped_", s.Skipped)))
			continue
		case s.Mutants == 0:
			none := e.p.T("validate.mutants_none")
			if s.Invalid > 0 {
				// There was something to change; nothing of it compiled.
				none = e.p.T("validate.mutants_none_invalid", "Count", s.Invalid)
			}
			e.mutantRow(s.Exercise, none)
			continue
		}
		e.mutantRow(s.Exercise, e.p.T("validate.mutants_line",
			"Mutants", s.Mutants, "Killed", s.Killed, "Survived", len(s.Survivors), "Equivalent", len(s.Equivalent),
			"Invalid", s.Invalid, "Score", fmt.Sprintf("%.0f", 100*s.Score()), "Duration", explain.Duration(e.p, s.Duration)))
		for _, q := range s.Equivalent {
			e.sayHanging("      "+e.p.T("validate.mutants_equivalent", "Mutant", q.ID, "Why", q.Why), 8)
		}
		for _, k := range s.Kills {
			e.sayHanging("      "+e.p.T("validate.mutants_test_kills", "Test", k.Test, "Count", k.Mutants), 8)
		}
	}
	killed, counted := rep.MutantTotals()
	score := 100.0
	if counted > 0 {
		score = 100 * float64(killed) / float64(counted)
	}
	e.say("validate.mutants_total", "Score", fmt.Sprintf("%.0f", score), "Killed", killed,
		"Counted", counted, "Duration", explain.Duration(e.p, rep.MutantTime), "Jobs", jobs)
}

// mutantRow writes one exercise's row of the mutants' table: its id in a
// column of its own, what its mutants did beside it and, on a terminal,
// wrapped under itself.
func (e *env) mutantRow(exercise, text string) {
	row := fmt.Sprintf("  %-16s ", exercise)
	if w := e.stdout().TextWidth(); w > 0 && term.Width(row)+term.Width(text) > w && w-term.Width(row) >= 20 {
		text = strings.Join(term.Wrap(text, w-term.Width(row)), "\n"+strings.Repeat(" ", term.Width(row)))
	}
	fmt.Fprintln(e.Out, row+text)
}

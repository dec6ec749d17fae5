package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/grade"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/workspace"
)

// The formats of grade: for one submission, and for a folder of them.
var (
	singleFormats = []string{"json", "junit", "gradescope", "github", "text"}
	batchFormats  = []string{"json", "csv", "text"}
)

// gradeFlags are the flags of grade.
type gradeFlags struct {
	checkFlags
	output      string // the document goes here instead of stdout
	submissions string // batch mode: a folder of submissions
	csv         string // batch mode: also write the CSV here
	jobs        int
}

func (f *gradeFlags) register(fs *flag.FlagSet) {
	f.checkFlags.register(fs)
	fs.StringVar(&f.format, "format", "text", "")
	fs.StringVar(&f.output, "output", "", "")
	fs.StringVar(&f.output, "o", "", "")
	fs.StringVar(&f.submissions, "submissions", "", "")
	fs.StringVar(&f.csv, "csv", "", "")
	fs.IntVar(&f.jobs, "j", runtime.NumCPU(), "")
	fs.IntVar(&f.jobs, "jobs", runtime.NumCPU(), "")
}

// gradeVerb grades for machines: one submission (a workspace or a bare
// folder of exercise folders) in one of several formats, or, with
// --submissions, every sub-folder of a folder in parallel. Grading takes
// nothing from a submission but its exercise sources: the course is the
// embedded one or --course, the language comes from --lang or the
// environment, never from the submission's kurs.toml.
func gradeVerb() *verb {
	f := &gradeFlags{}
	return &verb{name: "grade", flags: f.register, run: func(e *env, args []string) int {
		batch := f.submissions != ""
		formats := singleFormats
		if batch {
			formats = batchFormats
		}
		switch {
		case batch && !slices.Contains(formats, f.format) && slices.Contains(singleFormats, f.format):
			return e.usage("grade.batch_format", "Format", f.format, "Known", strings.Join(formats, ", "))
		case !slices.Contains(formats, f.format):
			return e.usage("error.format", "Format", f.format, "Known", strings.Join(formats, ", "))
		case batch && e.g.workspace != "":
			return e.usage("grade.one_source")
		case !batch && f.csv != "":
			return e.usage("grade.csv_single")
		case f.jobs < 1:
			return e.usage("grade.jobs", "Jobs", f.jobs)
		}
		c, err := e.course(nil) // never the one a submission's kurs.toml names
		if err != nil {
			return e.setupError(err)
		}
		exs, err := e.exercises(c, args)
		if err != nil {
			return e.setupError(err)
		}
		ck := &checker.Checker{Seed: f.seed, Timeout: f.timeout}
		if ck.Seed == 0 {
			ck.Seed = checker.DefaultSeed
		}
		if batch {
			return gradeBatch(e, f, ck, exs)
		}
		return gradeOne(e, f, ck, exs)
	}}
}

// gradeOne grades the workspace or folder named by --workspace, else the
// workspace around the current folder.
func gradeOne(e *env, f *gradeFlags, ck *checker.Checker, exs []*course.Exercise) int {
	dir, err := e.submission()
	if err != nil {
		return e.setupError(err)
	}
	g := &grade.Grader{Checker: ck, Exercises: exs, Jobs: f.jobs}
	results, err := g.Run(e.ctx, []grade.Submission{{Dir: dir}})
	if err != nil {
		fmt.Fprintln(e.Err, e.p.T("error.interrupted"))
		return ExitUsage
	}
	graded := results[0].Graded
	var doc, text bytes.Buffer
	_ = gradeText(&text, e.p, graded, f.verbose, ck.Seed)
	switch f.format {
	case "json":
		_ = report.JSON(&doc, report.NewDocument(e.p, graded))
	case "junit":
		_ = report.JUnit(&doc, e.p, graded)
	case "gradescope":
		_ = report.Gradescope(&doc, e.p, graded)
	case "github":
		_ = report.GitHub(&doc, e.p, graded, e.repoPath(dir))
	case "text":
		doc = text
	}
	code := e.emit(f, doc.Bytes(), text.Bytes())
	if f.format == "github" {
		if name := e.Getenv("GITHUB_STEP_SUMMARY"); name != "" {
			var md bytes.Buffer
			_ = report.GitHubSummary(&md, e.p, graded, ck.Seed)
			if err := appendFile(name, md.Bytes()); err != nil {
				fmt.Fprintln(e.Err, e.p.T("grade.summary", "File", name, "Err", err))
				code = ExitUsage
			}
		}
	}
	return worst(code, e.verdict(results))
}

// gradeBatch grades every submission in --submissions in parallel.
func gradeBatch(e *env, f *gradeFlags, ck *checker.Checker, exs []*course.Exercise) int {
	root, err := e.abs(f.submissions)
	if err != nil {
		return e.setupError(err)
	}
	subs, err := grade.Find(root, exs)
	if err != nil {
		return e.usage("grade.submissions_dir", "Dir", f.submissions, "Err", err)
	}
	if len(subs) == 0 {
		return e.usage("grade.no_submissions", "Dir", f.submissions)
	}
	fmt.Fprintln(e.Err, e.p.T("grade.batch_start", "Count", len(subs), "Dir", f.submissions, "Jobs", f.jobs, "Seed", ck.Seed))
	bar := newProgress(e.Err, e.p)
	g := &grade.Grader{Checker: ck, Exercises: exs, Jobs: f.jobs, Warm: true, Progress: bar.update}
	start := time.Now()
	results, err := g.Run(e.ctx, subs)
	if err != nil {
		bar.stop()
		fmt.Fprintln(e.Err, e.p.T("error.interrupted"))
		return ExitUsage
	}
	fmt.Fprintln(e.Err, e.p.T("grade.batch_done", "Count", len(subs), "Elapsed", time.Since(start).Round(100*time.Millisecond)))

	ids := make([]string, len(exs))
	for i, ex := range exs {
		ids[i] = ex.ID
	}
	rows := grade.Submissions(results)
	var doc, text, table bytes.Buffer
	_ = report.Table(&text, e.p, ids, rows)
	fmt.Fprintln(&text, e.p.T("grade.seed", "Seed", ck.Seed))
	_ = report.CSV(&table, ids, rows)
	switch f.format {
	case "json":
		_ = report.JSON(&doc, grade.NewDocument(e.p, ck.Seed, results))
	case "csv":
		doc = table
	case "text":
		doc = text
	}
	code := e.emit(f, doc.Bytes(), text.Bytes())
	if f.csv != "" {
		code = worst(code, e.write(f.csv, table.Bytes()))
	}
	return worst(code, e.verdict(results))
}

// emit writes the document to --output, and then the text for people to
// stdout (unless the document is that text), or else the document to
// stdout.
func (e *env) emit(f *gradeFlags, doc, text []byte) int {
	if f.output == "" {
		_, _ = e.Out.Write(doc)
		return ExitOK
	}
	if code := e.write(f.output, doc); code != ExitOK {
		return code
	}
	if f.format != "text" {
		_, _ = e.Out.Write(text)
	}
	return ExitOK
}

// write writes a file atomically: a CI job that reads it never sees half.
func (e *env) write(name string, data []byte) int {
	abs, err := e.abs(name)
	if err == nil {
		err = workspace.WriteFileAtomic(abs, data)
	}
	if err != nil {
		fmt.Fprintln(e.Err, e.p.T("grade.write", "File", name, "Err", err))
		return ExitUsage
	}
	return ExitOK
}

// verdict returns the exit code of the results: ExitUsage when kurs itself
// failed somewhere (the verdicts there are not the learner's), else
// ExitFail when an exercise does not pass.
func (e *env) verdict(results []grade.Result) int {
	code := ExitOK
	seen := map[string]bool{}
	for _, r := range results {
		for _, err := range r.Errs {
			// The same failure (no go command, a full disk) tends to hit
			// every check; say it once.
			if cause := err.Err.Error(); !seen[cause] {
				seen[cause] = true
				fmt.Fprintln(e.Err, e.p.T("grade.internal", "Where", err.Where(), "Err", cause))
			}
			code = ExitUsage
		}
		for _, g := range r.Graded {
			if g.Result.Status != checker.Pass {
				code = worst(code, ExitFail)
			}
		}
	}
	return code
}

// worst returns the more serious of two exit codes.
func worst(a, b int) int { return max(a, b) }

// gradeText is the text format of one submission: what check shows, and
// the seed that repeats it.
func gradeText(w io.Writer, p *i18n.Printer, graded []report.Graded, verbose bool, seed uint64) error {
	if err := report.Text(w, p, graded, verbose); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%s\n", p.T("grade.seed", "Seed", seed))
	return err
}

// submission returns the folder to grade: --workspace (a workspace or any
// folder holding exercise folders), else the nearest folder upwards from
// the current one that holds kurs.toml. The kurs.toml is not read: grading
// takes nothing from it.
func (e *env) submission() (string, error) {
	if e.g.workspace != "" {
		dir, err := e.abs(e.g.workspace)
		if err != nil {
			return "", err
		}
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return "", fmt.Errorf("%w in %s", workspace.ErrNotFound, dir)
		}
		return dir, nil
	}
	wd, err := e.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, workspace.ConfigFile)); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%w in %s or above", workspace.ErrNotFound, wd)
		}
	}
}

// repoPath returns dir relative to the repository that GitHub Actions
// checked out ($GITHUB_WORKSPACE, else the current folder), slash-separated,
// so that annotations point at the learner's files; "" when dir lies
// outside it.
func (e *env) repoPath(dir string) string {
	base := e.Getenv("GITHUB_WORKSPACE")
	if base == "" {
		var err error
		if base, err = e.Getwd(); err != nil {
			return ""
		}
	}
	rel, err := filepath.Rel(base, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// appendFile appends data to the file name, creating it if needed, as
// GitHub expects of additions to the job summary.
func appendFile(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return errors.Join(err, f.Close())
}

// progress shows how far a batch is on stderr: a bar redrawn in place on a
// terminal, and in a log (CI, a file) a line per tenth of the batch.
type progress struct {
	w     io.Writer
	p     *i18n.Printer
	bar   bool
	open  bool // a bar is drawn and its line not ended
	shown int  // tenths already logged
}

func newProgress(w io.Writer, p *i18n.Printer) *progress {
	pr := &progress{w: w, p: p}
	if f, ok := w.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			pr.bar = true
		}
	}
	return pr
}

func (pr *progress) update(done, total int) {
	label := pr.p.T("grade.progress", "Done", done, "Total", total)
	if pr.bar {
		const width = 30
		n := done * width / total
		fmt.Fprintf(pr.w, "\r[%s%s] %s ", strings.Repeat("█", n), strings.Repeat("░", width-n), label)
		pr.open = true
		if done == total {
			pr.stop()
		}
		return
	}
	if tenth := done * 10 / total; tenth > pr.shown {
		pr.shown = tenth
		fmt.Fprintln(pr.w, label)
	}
}

// stop ends the bar's line, so that what follows starts on a line of its
// own.
func (pr *progress) stop() {
	if pr.open {
		fmt.Fprintln(pr.w)
		pr.open = false
	}
}

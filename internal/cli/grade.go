package cli

import (
	"bytes"
	"encoding/json"
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
	batchFormats  = []string{"json", "csv", "text", "html"}
)

// gradeFlags are the flags of grade.
type gradeFlags struct {
	checkFlags
	output      string // the document goes here instead of stdout
	submissions string // batch mode: a folder of submissions
	csv         string // batch mode: also write the CSV here
	shard       string // batch mode: grade part K of N, "K/N"
	jobs        int
}

func (f *gradeFlags) register(fs *flag.FlagSet) {
	f.checkFlags.register(fs)
	fs.StringVar(&f.format, "format", "text", "")
	fs.StringVar(&f.output, "output", "", "")
	fs.StringVar(&f.output, "o", "", "")
	fs.StringVar(&f.submissions, "submissions", "", "")
	fs.StringVar(&f.csv, "csv", "", "")
	fs.StringVar(&f.shard, "shard", "", "")
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
		if len(args) > 0 && args[0] == "merge" {
			return gradeMerge(e, f, args[1:])
		}
		batch := f.submissions != ""
		formats := singleFormats
		if batch {
			formats = batchFormats
		}
		var shard, shards int
		switch {
		case !batch && f.format == "html":
			return e.usage("grade.html_single")
		case batch && !slices.Contains(formats, f.format) && slices.Contains(singleFormats, f.format):
			return e.usage("grade.batch_format", "Format", f.format, "Known", strings.Join(formats, ", "))
		case !slices.Contains(formats, f.format):
			return e.usage("error.format", "Format", f.format, "Known", strings.Join(formats, ", "))
		case batch && e.g.workspace != "":
			return e.usage("grade.one_source")
		case !batch && f.csv != "":
			return e.usage("grade.csv_single")
		case !batch && f.shard != "":
			return e.usage("grade.shard_batch")
		case f.jobs < 1:
			return e.usage("grade.jobs", "Jobs", f.jobs)
		case f.shard != "":
			var ok bool
			if shard, shards, ok = grade.ParseShard(f.shard); !ok {
				return e.usage("grade.shard", "Shard", f.shard)
			}
		}
		c, err := e.course(nil) // never the one a submission's kurs.toml names
		if err != nil {
			return e.setupError(err)
		}
		hash, err := grade.CourseHash(c.FS())
		if err != nil {
			return e.setupError(&usageError{e.p.T("error.course", "Err", err)})
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
			return gradeBatch(e, f, ck, hash, exs, shard, shards)
		}
		return gradeOne(e, f, ck, hash, exs)
	}}
}

// gradeOne grades the workspace or folder named by --workspace, else the
// workspace around the current folder. A folder that holds only one
// folder, as an archive unpacked with its top folder does, is graded from
// that folder, as in a batch.
func gradeOne(e *env, f *gradeFlags, ck *checker.Checker, hash string, exs []*course.Exercise) int {
	dir, err := e.submission()
	if err != nil {
		return e.setupError(err)
	}
	dir = grade.Root(dir, exs)
	g := &grade.Grader{Checker: ck, Exercises: exs, Jobs: f.jobs}
	start := time.Now()
	results, err := g.Run(e.ctx, []grade.Submission{{Dir: dir}})
	if err != nil {
		fmt.Fprintln(e.Err, e.p.T("error.interrupted"))
		return ExitUsage
	}
	run := report.Run{Course: hash, Seed: ck.Seed, Elapsed: time.Since(start), Dir: e.repoPath(dir)}
	graded := results[0].Graded
	var doc, text bytes.Buffer
	_ = gradeText(&text, e.p, graded, f.verbose, ck.Seed)
	switch f.format {
	case "json":
		d := report.NewDocument(e.p, graded)
		d.Course = hash
		_ = report.JSON(&doc, d)
	case "junit":
		_ = report.JUnit(&doc, e.p, graded, run)
	case "gradescope":
		_ = report.Gradescope(&doc, e.p, graded, run)
	case "github":
		_ = report.GitHub(&doc, e.p, graded, run.Dir)
	case "text":
		doc = text
	}
	code := e.emit(f, doc.Bytes(), text.Bytes())
	if f.format == "github" {
		if name := e.Getenv("GITHUB_STEP_SUMMARY"); name != "" {
			var md bytes.Buffer
			_ = report.GitHubSummary(&md, e.p, graded, run)
			if err := appendFile(name, md.Bytes()); err != nil {
				fmt.Fprintln(e.Err, e.p.T("grade.summary", "File", name, "Err", err))
				code = ExitUsage
			}
		}
	}
	return worst(code, e.verdict(results))
}

// gradeBatch grades every submission in --submissions in parallel, or with
// --shard K/N every N-th of them, starting with the K-th.
func gradeBatch(e *env, f *gradeFlags, ck *checker.Checker, hash string, exs []*course.Exercise, shard, shards int) int {
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
	class := len(subs)
	if shards > 0 {
		subs = grade.Shard(subs, shard, shards)
		fmt.Fprintln(e.Err, e.p.T("grade.shard_start", "Shard", shard, "Of", shards, "Part", len(subs), "Class", class))
	}
	fmt.Fprintln(e.Err, e.p.T("grade.batch_start", "Count", len(subs), "Dir", f.submissions, "Jobs", f.jobs, "Seed", ck.Seed))
	bar := newProgress(e.Err, e.p)
	g := &grade.Grader{Checker: ck, Exercises: exs, Jobs: f.jobs, Warm: len(subs) > 0, Progress: bar.update}
	start := time.Now()
	results, err := g.Run(e.ctx, subs)
	if err != nil {
		bar.stop()
		fmt.Fprintln(e.Err, e.p.T("error.interrupted"))
		return ExitUsage
	}
	fmt.Fprintln(e.Err, e.p.T("grade.batch_done", "Count", len(subs), "Elapsed", time.Since(start).Round(100*time.Millisecond)))

	doc := grade.NewDocument(e.p, hash, ck.Seed, exs, results)
	if shards > 0 {
		doc.Shard = &report.Shard{Index: shard, Count: shards, Class: class}
	}
	code := writeBatch(e, f, doc, exs)
	return worst(code, e.verdict(results))
}

// writeBatch writes a batch's document in --format, to --output or
// stdout, and the CSV to --csv. Every batch format is made from the
// document alone, so that merged shards give the bytes of one run.
func writeBatch(e *env, f *gradeFlags, doc *grade.Document, exs []*course.Exercise) int {
	rows := doc.Rows()
	var out, text, table bytes.Buffer
	_ = report.Table(&text, e.p, doc.ExerciseIDs, rows)
	fmt.Fprintln(&text, e.p.T("grade.seed", "Seed", doc.Seed))
	_ = report.CSV(&table, doc.ExerciseIDs, rows)
	switch f.format {
	case "json":
		_ = report.JSON(&out, doc)
	case "csv":
		out = table
	case "html":
		_ = report.Class(&out, e.p, doc, exs)
	case "text":
		out = text
	}
	code := e.emit(f, out.Bytes(), text.Bytes())
	if f.csv != "" {
		code = worst(code, e.write(f.csv, table.Bytes()))
	}
	return code
}

// gradeMerge joins the JSON documents of the shards of one class, as
// `kurs grade --submissions DIR --shard K/N --format json` writes them,
// into the document of one run, written in any batch format.
func gradeMerge(e *env, f *gradeFlags, files []string) int {
	switch {
	case len(files) == 0:
		return e.usage("grade.merge_none")
	case f.submissions != "":
		return e.usage("grade.merge_flags", "Flag", "--submissions")
	case f.shard != "":
		return e.usage("grade.merge_flags", "Flag", "--shard")
	case e.g.workspace != "":
		return e.usage("grade.merge_flags", "Flag", "--workspace")
	case !slices.Contains(batchFormats, f.format):
		return e.usage("grade.batch_format", "Format", f.format, "Known", strings.Join(batchFormats, ", "))
	}
	var docs []*grade.Document
	for _, name := range files {
		abs, err := e.abs(name)
		var data []byte
		if err == nil {
			data, err = os.ReadFile(abs)
		}
		if err != nil {
			return e.usage("grade.merge_read", "File", name, "Err", err)
		}
		var d grade.Document
		if err := json.Unmarshal(data, &d); err != nil {
			return e.usage("grade.merge_json", "File", name, "Err", err)
		}
		docs = append(docs, &d)
	}
	doc, err := grade.Merge(docs)
	if err != nil {
		var me *grade.MergeError
		if errors.As(err, &me) {
			return e.usage("grade.merge_"+me.Key, me.Args...)
		}
		return e.setupError(err)
	}
	// The class report names the exercises by their titles, from the
	// course that graded.
	var exs []*course.Exercise
	if f.format == "html" {
		c, err := e.course(nil)
		if err != nil {
			return e.setupError(err)
		}
		hash, err := grade.CourseHash(c.FS())
		if err != nil {
			return e.setupError(&usageError{e.p.T("error.course", "Err", err)})
		}
		if hash != doc.Course {
			return e.usage("grade.merge_other_course", "Course", doc.Course, "Have", hash)
		}
		exs = c.Exercises
	}
	code := writeBatch(e, f, doc, exs)
	for _, s := range doc.Submissions {
		if s.Document != nil && s.Status != string(checker.Pass) {
			return worst(code, ExitFail)
		}
	}
	return code
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

// repoPath returns dir relative to the root of the repository it was
// checked out in, slash-separated, so that annotations and JUnit point at
// the learner's files: $GITHUB_WORKSPACE on GitHub Actions,
// $CI_PROJECT_DIR on GitLab CI, else the nearest folder upwards from dir
// that holds .git, else the current folder; "" when dir lies outside it.
func (e *env) repoPath(dir string) string {
	base := e.Getenv("GITHUB_WORKSPACE")
	if base == "" {
		base = e.Getenv("CI_PROJECT_DIR")
	}
	if base == "" {
		base = gitRoot(dir)
	}
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

// gitRoot returns the nearest folder upwards from dir that holds .git (a
// folder, or a file in a worktree or submodule), or "".
func gitRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
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

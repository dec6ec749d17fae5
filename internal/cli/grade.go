package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/grade"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/termdoc"
	"github.com/kurs-course/kurs/internal/textsafe"
	"github.com/kurs-course/kurs/internal/workspace"
)

// Formats with a part of their own in kurs grade.
const (
	// textFormat is for people: the default, and what stdout shows when
	// --output takes the document.
	textFormat = "text"
	// csvFormat is what --csv writes.
	csvFormat = "csv"
)

// gradeFlags are the flags of grade.
type gradeFlags struct {
	checkFlags
	format      string // a name in report's registry of formats
	output      string // the document goes here instead of stdout
	submissions string // batch mode: a folder of submissions
	csv         string // batch mode: also write the CSV here
	shard       string // batch mode: grade part K of N, "K/N"
	alone       bool   // batch mode: no program holds two submissions' code
	jobs        int
	// seed replaces checkFlags' seed: a grading's seed is random unless
	// --seed gives one.
	seed grade.Seed
	// given names the grading flags of a run (-j, --timeout) that the
	// command line set, which merge refuses: their defaults cannot be
	// told from a value given.
	given map[string]bool
}

// setRecorder is a flag's value that notes in given that it was set.
type setRecorder struct {
	flag.Value
	name  string
	given map[string]bool
}

func (r setRecorder) Set(s string) error {
	r.given[r.name] = true
	return r.Value.Set(s)
}

func (f *gradeFlags) register(fs *flag.FlagSet) {
	f.checkFlags.register(fs)
	// The same --seed as check's, but without a default: a grading with a
	// seed everyone knows could have its random traces answered in
	// advance.
	if fl := fs.Lookup("seed"); fl != nil {
		fl.Value, fl.DefValue = &f.seed, f.seed.String()
	}
	fs.StringVar(&f.format, "format", textFormat, "")
	fs.StringVar(&f.output, "output", "", "")
	fs.StringVar(&f.output, "o", "", "")
	fs.StringVar(&f.submissions, "submissions", "", "")
	fs.StringVar(&f.csv, "csv", "", "")
	fs.StringVar(&f.shard, "shard", "", "")
	fs.BoolVar(&f.alone, "alone", false, "")
	// The processors this process may use: GOMAXPROCS follows a
	// container's CPU limit (since Go 1.25), NumCPU counts the node's.
	fs.IntVar(&f.jobs, "j", runtime.GOMAXPROCS(0), "")
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "")
	f.given = map[string]bool{}
	for _, name := range []string{"j", "jobs", "timeout"} {
		if fl := fs.Lookup(name); fl != nil {
			fl.Value = setRecorder{Value: fl.Value, name: name, given: f.given}
		}
	}
}

func gradeVerb() *verb {
	v := command("grade", (*gradeFlags).register, gradeSubmissions)
	v.help = gradeHelp
	// Grading takes nothing from a submission but its exercise sources.
	v.graderLang = true
	return v
}

// gradeSubmissions grades for machines: one submission (a workspace or a
// bare folder of exercise folders) in one of several formats, or, with
// --submissions, every sub-folder of a folder in parallel. Grading takes
// nothing from a submission but its exercise sources: the course is the
// embedded one or --course, the language comes from --lang or the
// environment, never from the submission's kurs.toml.
func gradeSubmissions(e *env, f *gradeFlags, args []string) error {
	if len(args) > 0 && args[0] == "merge" {
		return gradeMerge(e, f, args[1:])
	}
	batch := f.submissions != ""
	format, err := e.format(f.format, batch)
	if err != nil {
		return err
	}
	var shard, shards int
	switch {
	case batch && e.g.workspace != "":
		return e.usageErr("grade.one_source")
	case !batch && f.csv != "":
		return e.usageErr("grade.csv_single")
	case !batch && f.shard != "":
		return e.usageErr("grade.shard_batch")
	case !batch && f.alone:
		return e.usageErr("grade.alone_batch")
	case f.jobs < 1:
		return e.usageErr("grade.jobs", "Jobs", f.jobs)
	case f.shard != "":
		var ok bool
		if shard, shards, ok = grade.ParseShard(f.shard); !ok {
			return e.usageErr("grade.shard", "Shard", f.shard)
		}
	}
	c, hash, err := e.gradingCourse()
	if err != nil {
		return err
	}
	exs, err := e.exercises(c, args)
	if err != nil {
		return err
	}
	ck := &checker.Checker{Build: e.builder(), Seed: f.seed.N, Timeout: f.timeout}
	// What a submission's build makes is kept apart from a learner's
	// objects, for the others of this run and a regrade of the same files
	// (KeepObjectsForGrading).
	if ck.Build != nil {
		ck.Build.KeepObjectsForGrading()
	}
	if !f.seed.Given {
		ck.Seed = grade.NewSeed()
	}
	if ck.Seed == 0 {
		ck.Seed = checker.DefaultSeed
	}
	if batch {
		return gradeBatch(e, f, format, ck, hash, exs, shard, shards)
	}
	return gradeOne(e, f, format, ck, hash, exs)
}

// gradeHelp is grade's help, with the formats that report's registry
// has.
func gradeHelp(e *env) string {
	const list = "\x00" // where the list of formats goes
	help := e.p.T("help.grade", "Formats", list, "BatchFormats", strings.Join(report.FormatNames(true), "|"))
	start := strings.Index(help, list)
	if start < 0 {
		return help
	}
	col := termdoc.Width(help[strings.LastIndex(help[:start], "\n")+1 : start])
	return help[:start] + hang(e.formatList(true), col, helpWidth) + help[start+len(list):]
}

// helpWidth is the width that help texts are written to.
const helpWidth = 78

// formatList names the formats, first the default and the others for
// one submission, then those for a class alone; with notes, each with
// its note, as the help lists them.
func (e *env) formatList(notes bool) string {
	var single, class []string
	for _, f := range report.Formats() {
		item := f.Name
		if notes {
			var ns []string
			if f.Name == textFormat {
				ns = append(ns, e.p.T("grade.format_default"))
			}
			if f.Note != "" {
				ns = append(ns, e.p.T(f.Note))
			}
			if len(ns) > 0 {
				item += " (" + strings.Join(ns, ", ") + ")"
			}
		}
		switch {
		case f.Name == textFormat:
			single = append([]string{item}, single...)
		case f.Single != nil:
			single = append(single, item)
		default:
			class = append(class, item)
		}
	}
	if len(class) == 0 {
		return strings.Join(single, ", ")
	}
	last := len(class) - 1
	if last > 0 {
		class = []string{e.p.T("grade.format_and", "List", strings.Join(class[:last], ", "), "Last", class[last])}
	}
	return e.p.T("grade.format_list", "Single", strings.Join(single, ", "), "Class", class[0])
}

// hang breaks s into lines at spaces so that none is wider than width
// columns, the first starting at column col and the others indented to it.
func hang(s string, col, width int) string {
	var b strings.Builder
	n := col
	for i, word := range termdoc.Words(s) {
		w := termdoc.Width(word)
		if i > 0 && n+1+w > width {
			b.WriteString("\n" + strings.Repeat(" ", col))
			n = col
		} else if i > 0 {
			b.WriteString(" ")
			n++
		}
		b.WriteString(word)
		n += w
	}
	return b.String()
}

// format returns the format called name, for a batch or for one
// submission.
func (e *env) format(name string, batch bool) (report.Format, error) {
	format, ok := report.LookupFormat(name)
	known := strings.Join(report.FormatNames(batch), ", ")
	switch {
	case !ok && batch:
		return format, e.usageErr("error.format", "Format", name, "Known", known)
	case !ok:
		// Every format, as the help lists them: one for a class alone
		// is still a format, which a mistyped name may have meant.
		return format, e.usageErr("error.format", "Format", name, "Known", e.formatList(false))
	case batch && format.Batch == nil:
		return format, e.usageErr("grade.batch_format", "Format", name, "Known", known)
	case !batch && format.Single == nil:
		return format, e.usageErr("grade.class_format", "Format", name)
	}
	return format, nil
}

// gradingCourse returns the course that grades, never the one a
// submission's kurs.toml names, and its content hash.
func (e *env) gradingCourse() (*course.Course, string, error) {
	c, err := e.course(nil)
	if err != nil {
		return nil, "", err
	}
	hash, err := grade.CourseHash(c.FS())
	if err != nil {
		return nil, "", &usageError{e.p.T("error.course", "Err", err)}
	}
	return c, hash, nil
}

// gradeOne grades the workspace or folder named by --workspace, else the
// workspace around the current folder. A folder that holds only one
// folder, as an archive unpacked with its top folder does, is graded from
// that folder, as in a batch.
func gradeOne(e *env, f *gradeFlags, format report.Format, ck *checker.Checker, hash string, exs []*course.Exercise) error {
	dir, err := e.submission()
	if err != nil {
		return err
	}
	dir = grade.Root(dir, exs)
	if names := grade.Nested(dir, exs); len(names) > 0 {
		given := e.shownPath(e.g.workspace, dir)
		if len(names) == 1 {
			return e.usageErr("grade.nested_workspace", "Dir", given, "Right", fileName(e.p, filepath.Join(given, names[0])))
		}
		return e.usageErr("grade.class_as_workspace", "Dir", given, "Count", len(names), "Names", e.someNames(names))
	}
	g := &grade.Grader{Checker: ck, Exercises: exs, Jobs: f.jobs}
	start := time.Now()
	results, err := g.Run(e.ctx, []grade.Submission{{Dir: dir}})
	if err != nil {
		return err // the context has ended, which exit reports
	}
	stamp, err := e.sourceDate()
	if err != nil {
		return err
	}
	if stamp.IsZero() {
		stamp = start
	}
	run := report.Run{Course: hash, Kurs: e.kursBuild(), Seed: ck.Seed, Elapsed: time.Since(start), Started: stamp, Dir: e.repoPath(dir), Verbose: f.verbose}
	graded := results[0].Graded
	write := func(w func(io.Writer, *i18n.Printer, []explain.Graded, report.Run) error) func(io.Writer) error {
		return func(out io.Writer) error { return w(out, e.p, graded, run) }
	}
	// The text on a terminal wraps to it, as kurs check's does; in a
	// file or a pipe each line stays whole.
	text := func(out io.Writer) error {
		r := run
		r.Width = e.screen().wrap()
		return registered(textFormat).Single(out, e.p, graded, r)
	}
	document := write(format.Single)
	if format.Name == textFormat && f.output == "" {
		document = text
	}
	err = e.emit(f, document, text)
	if format.Summary != nil {
		if name := e.Getenv("GITHUB_STEP_SUMMARY"); name != "" {
			err = errors.Join(err, e.appendSummary(name, write(format.Summary)))
		}
	}
	return errors.Join(err, e.verdict(results))
}

// gradeBatch grades every submission in --submissions in parallel, or with
// --shard K/N every N-th of them, starting with the K-th.
func gradeBatch(e *env, f *gradeFlags, format report.Format, ck *checker.Checker, hash string, exs []*course.Exercise, shard, shards int) error {
	root, err := e.abs(f.submissions)
	if err != nil {
		return err
	}
	// A learner's workspace given as the class would be graded as one
	// submission per exercise folder, each without code.
	if names, config := grade.Holds(root, exs); len(names) > 0 || config {
		given := fileName(e.p, f.submissions)
		if len(names) == 0 {
			return e.usageErr("grade.submission_as_class_config", "Dir", given)
		}
		return e.usageErr("grade.submission_as_class", "Dir", given, "Count", len(names), "Names", e.someNames(names))
	}
	subs, err := grade.Find(root, exs)
	if err != nil {
		return e.usageErr("grade.submissions_dir", "Dir", f.submissions, "Err", err)
	}
	if len(subs) == 0 {
		return e.usageErr("grade.no_submissions", "Dir", f.submissions)
	}
	for _, s := range subs {
		if err := e.nested(s, len(subs), f.submissions, exs); err != nil {
			return err
		}
	}
	class := len(subs)
	if shards > 0 {
		subs = grade.Shard(subs, shard, shards)
		fmt.Fprintln(e.Err, e.p.T("grade.shard_start", "Shard", shard, "Of", shards, "Part", len(subs), "Class", class))
	}
	fmt.Fprintln(e.Err, e.p.T("grade.batch_start", "Count", len(subs), "Dir", f.submissions, "Jobs", f.jobs, "Seed", ck.Seed))
	bar := newProgress(e.Err, e.p)
	g := &grade.Grader{Checker: ck, Exercises: exs, Jobs: f.jobs, Alone: f.alone, Warm: len(subs) > 0, Progress: bar.update}
	start := time.Now()
	results, err := g.Run(e.ctx, subs)
	if err != nil {
		bar.stop()
		return err // the context has ended, which exit reports
	}
	fmt.Fprintln(e.Err, e.p.T("grade.batch_done", "Count", len(subs), "Elapsed", explain.Duration(e.p, time.Since(start))))

	doc := grade.NewDocument(e.p, hash, e.kursBuild(), ck.Seed, exs, results)
	if shards > 0 {
		doc.Shard = &report.Shard{Index: shard, Count: shards, Class: class}
	}
	return errors.Join(writeBatch(e, f, format, doc, exs), e.verdict(results))
}

// nested refuses a submission s of a class of n (given as --submissions
// given) that holds no exercise but folders that do: the
// class given one folder too high (a copy into a folder that existed),
// or a learner's several attempts. Graded, it would be one submission
// without points, and the submissions in it would go ungraded.
func (e *env) nested(s grade.Submission, n int, given string, exs []*course.Exercise) error {
	names := grade.Nested(s.Dir, exs)
	if len(names) == 0 {
		return nil
	}
	right := e.shownPath(given, s.Dir)
	if n == 1 {
		return e.usageErr("grade.class_as_one", "Right", right, "Count", len(names), "Names", e.someNames(names))
	}
	return e.usageErr("grade.nested_submission", "ID", textsafe.Line(e.p, s.ID, textsafe.ValueMax), "Right", right,
		"Count", len(names), "Names", e.someNames(names))
}

// someNames lists the first three of names, made safe to show, and an
// ellipsis for the others.
func (e *env) someNames(names []string) string {
	shown := make([]string, 0, 4)
	for i, n := range names {
		if i == 3 {
			shown = append(shown, "…")
			break
		}
		shown = append(shown, textsafe.Line(e.p, n, textsafe.ValueMax))
	}
	return strings.Join(shown, ", ")
}

// shownPath returns dir, a folder at or below the folder given as the
// user gave it, in the user's terms: given joined with the rest.
func (e *env) shownPath(given, dir string) string {
	abs, err := e.abs(given)
	if err == nil {
		if rel, err := filepath.Rel(abs, dir); err == nil {
			return fileName(e.p, filepath.Join(given, rel))
		}
	}
	return fileName(e.p, dir)
}

// writeBatch writes a batch's document in format, to --output or stdout,
// and the CSV to --csv. Every batch format is made from the document
// alone, so that merged shards give the bytes of one run.
func writeBatch(e *env, f *gradeFlags, format report.Format, doc *grade.Document, exs []*course.Exercise) error {
	var err error
	if doc.Written, err = e.sourceDate(); err != nil {
		return err
	}
	write := func(w func(io.Writer, *i18n.Printer, *report.Batch, []*course.Exercise) error) func(io.Writer) error {
		return func(out io.Writer) error { return w(out, e.p, doc, exs) }
	}
	// The table on stdout fits the terminal (or COLUMNS, else 80
	// columns); in a file it is 80 columns wide. -v adds what the
	// failing submissions show, in either.
	text := func(width int) func(io.Writer) error {
		return func(out io.Writer) error {
			return report.BatchText(out, e.p, doc, report.BatchTextOptions{Width: width, Verbose: f.verbose, Exercises: exs})
		}
	}
	table := text(e.screen().width)
	document := write(format.Batch)
	if format.Name == textFormat {
		document = text(termdoc.DefaultWidth)
		if f.output == "" {
			document = table
		}
	}
	err = e.emit(f, document, table)
	if f.csv != "" {
		err = errors.Join(err, e.writeFile(f.csv, write(registered(csvFormat).Batch)))
	}
	return err
}

// sourceDate returns the time that $SOURCE_DATE_EPOCH gives in seconds
// since 1970, or the zero time when it is unset: the reproducible-builds
// convention, which pins the one time a format writes (JUnit's
// timestamp), so that two gradings give the same bytes.
func (e *env) sourceDate() (time.Time, error) {
	v := e.Getenv("SOURCE_DATE_EPOCH")
	if v == "" {
		return time.Time{}, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return time.Time{}, e.usageErr("grade.source_date", "Value", textsafe.Line(e.p, v, textsafe.ValueMax))
	}
	return time.Unix(n, 0).UTC(), nil
}

// registered returns a format that kurs grade names itself; the report
// package's tests make sure it is registered.
func registered(name string) report.Format {
	format, _ := report.LookupFormat(name)
	return format
}

// gradeMerge joins the JSON documents of the shards of one class, as
// `kurs grade --submissions DIR --shard K/N --format json` writes them,
// into the document of one run, written in any batch format.
func gradeMerge(e *env, f *gradeFlags, files []string) error {
	switch {
	case len(files) == 0:
		return e.usageErr("grade.merge_none")
	case f.submissions != "":
		return e.usageErr("grade.merge_flags", "Flag", "--submissions")
	case f.shard != "":
		return e.usageErr("grade.merge_flags", "Flag", "--shard")
	case f.seed.Given:
		// The seed is the shards'; one given here would change nothing.
		return e.usageErr("grade.merge_flags", "Flag", "--seed")
	case f.given["timeout"]:
		return e.usageErr("grade.merge_flags", "Flag", "--timeout")
	case f.given["j"] || f.given["jobs"]:
		return e.usageErr("grade.merge_flags", "Flag", "-j")
	case e.g.workspace != "":
		return e.usageErr("grade.merge_flags", "Flag", "--workspace")
	}
	format, ok := report.LookupFormat(f.format)
	if ok && format.Batch == nil {
		// merge has no --submissions to suggest: it writes a class.
		return e.usageErr("grade.merge_format", "Format", f.format, "Known", strings.Join(report.FormatNames(true), ", "))
	}
	format, err := e.format(f.format, true)
	if err != nil {
		return err
	}
	var docs []*grade.Document
	for _, name := range files {
		abs, err := e.abs(name)
		var data []byte
		if err == nil {
			data, err = os.ReadFile(abs)
		}
		if err != nil {
			return e.mergeReadErr(name, abs, err)
		}
		d, err := e.readShard(name, data)
		if err != nil {
			return err
		}
		docs = append(docs, d)
	}
	doc, err := grade.Merge(docs)
	if err != nil {
		var me *grade.MergeError
		if errors.As(err, &me) {
			return e.mergeErr(me, files)
		}
		return err
	}
	// merge speaks the shards' language, as a check speaks the
	// workspace's, unless --lang or KURS_LANG chooses another; then the
	// shards' messages stay in theirs, and merge says so.
	if i18n.Supported(doc.Lang) {
		e.p = i18n.New(i18n.Choose(e.g.lang, doc.Lang, e.Getenv))
		if e.p.Lang() != doc.Lang {
			fmt.Fprintln(e.Err, e.p.T("grade.merge_other_lang", "Lang", e.langName(doc.Lang)))
		}
	}
	// A format that shows the exercises' titles takes them from the
	// course that graded. So does the text of -v, but it also reads
	// without them, as the table does: from another course, it shows
	// the ids.
	var exs []*course.Exercise
	if format.Titles || f.verbose {
		c, hash, err := e.gradingCourse()
		if err != nil {
			return err
		}
		switch {
		case hash == doc.Course:
			exs = c.Exercises
		case format.Titles:
			return e.usageErr("grade.merge_other_course", "Course", doc.Course, "Have", hash)
		}
	}
	err = writeBatch(e, f, format, doc, exs)
	for _, s := range doc.Submissions {
		if s.Document != nil && s.Status != string(checker.Pass) {
			return errors.Join(err, errFailed)
		}
	}
	return err
}

// mergeErr says why the documents in files do not merge, naming each
// document by its file as the command line gave it, languages in the
// reader's language, and a submission's id made safe to show, as a
// document holds it as its student named their folder.
func (e *env) mergeErr(me *grade.MergeError, files []string) error {
	args := slices.Clone(me.Args)
	for i := 0; i+1 < len(args); i += 2 {
		s, ok := args[i+1].(string)
		switch {
		case ok && (args[i] == "Lang" || args[i] == "FirstLang"):
			args[i+1] = e.langName(s)
		case ok && (args[i] == "ID" || args[i] == "Where" || args[i] == "Kurs" || args[i] == "FirstKurs"):
			args[i+1] = textsafe.Line(e.p, s, textsafe.ValueMax)
		}
	}
	for key, i := range map[string]int{"File": me.Doc, "FirstFile": me.First} {
		if i >= 0 && i < len(files) {
			args = append(args, key, fileName(e.p, files[i]))
		}
	}
	return e.usageErr("grade.merge_"+me.Key, args...)
}

// readShard reads the JSON document of a shard from data, read from the
// file given as name. What is not one is refused in the reader's words:
// Go's own messages are English and speak of literals and Go types.
func (e *env) readShard(name string, data []byte) (*grade.Document, error) {
	file := fileName(e.p, name)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, e.usageErr("grade.merge_json_empty", "File", file)
	}
	var d grade.Document
	dec := json.NewDecoder(bytes.NewReader(data))
	// A key kurs does not write is an edit, or another program's
	// document: merge would drop it without a word.
	dec.DisallowUnknownFields()
	err := dec.Decode(&d)
	if err == nil && dec.More() {
		err = &json.SyntaxError{Offset: dec.InputOffset() + 1}
	}
	if field, ok := strings.CutPrefix(fmt.Sprint(err), `json: unknown field "`); ok && d.Version != 0 && d.Course != "" {
		return nil, e.usageErr("grade.merge_json_unknown", "File", file, "Field", textsafe.Line(e.p, strings.TrimSuffix(field, `"`), textsafe.ValueMax))
	}
	if err != nil && strings.HasPrefix(err.Error(), "json: unknown field ") {
		// Not a class's document at all; the checks below say what it is.
		err = json.Unmarshal(data, &d)
	}
	if err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntax):
			return nil, e.usageErr("grade.merge_json_at", "File", file, "Offset", syntax.Offset)
		case errors.As(err, &typ) && typ.Field != "":
			return nil, e.usageErr("grade.merge_json_field", "File", file, "Field", textsafe.Line(e.p, typ.Field, textsafe.ValueMax))
		case errors.As(err, &typ):
			return nil, e.usageErr("grade.merge_json", "File", file)
		}
		return nil, e.usageErr("grade.merge_json_err", "File", file, "Err", err)
	}
	if d.Submissions == nil || d.Version == 0 || d.Course == "" {
		// Every class's document has its version, names its course and
		// lists its submissions, if none. One with exercises instead is
		// one submission's result.
		var single struct{ Exercises json.RawMessage }
		if json.Unmarshal(data, &single) == nil && single.Exercises != nil {
			return nil, e.usageErr("grade.merge_single", "File", file)
		}
		return nil, e.usageErr("grade.merge_json", "File", file)
	}
	if d.Kurs == "" {
		return nil, e.usageErr("grade.merge_no_kurs", "File", file)
	}
	return &d, nil
}

// mergeReadErr says why a shard's file given as name (at abs) cannot be
// read: in the reader's words when it does not exist or is a folder, for
// which the name given says enough; else with the system's reason.
func (e *env) mergeReadErr(name, abs string, err error) error {
	file := fileName(e.p, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return e.usageErr("grade.merge_missing_file", "File", file)
	case abs != "" && isDir(abs):
		return e.usageErr("grade.merge_folder", "File", file)
	}
	return e.usageErr("grade.merge_read", "File", file, "Err", err)
}

// isDir reports whether name is a folder.
func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// fileName is a file's name as the command line gave it, made safe to
// show: a shell's glob passes on whatever names a folder holds.
func fileName(p *i18n.Printer, name string) string {
	return textsafe.Line(p, name, textsafe.ValueMax)
}

// emit writes the document to --output, and then the text for people to
// stdout (unless the document is that text), or else the document to
// stdout.
func (e *env) emit(f *gradeFlags, doc, text func(io.Writer) error) error {
	if f.verbose && f.output == "" && f.format != textFormat {
		// -v explains more in the text only, which stdout does not show.
		fmt.Fprintln(e.Err, e.p.T("grade.verbose_other", "Format", f.format))
	}
	if f.output == "" {
		return e.writeStdout(doc)
	}
	if err := e.writeFile(f.output, doc); err != nil {
		return err
	}
	if f.format != textFormat {
		return e.writeStdout(text)
	}
	return nil
}

// verdict returns the error that the results come to: a usage error for
// each failure of kurs itself (the verdicts there are not the learner's),
// and errFailed when an exercise does not pass.
func (e *env) verdict(results []grade.Result) error {
	var errs []error
	seen := map[string]bool{}
	for _, r := range results {
		for _, err := range r.Errs {
			// The same failure (no go command, a full disk) tends to hit
			// every check; say it once.
			if cause := err.Err.Error(); !seen[cause] {
				seen[cause] = true
				errs = append(errs, e.usageErr("grade.internal", "Where", err.Where(), "Err", cause))
			}
		}
	}
	for _, r := range results {
		if err := failed(r.Graded); err != nil {
			return errors.Join(append(errs, err)...)
		}
	}
	return errors.Join(errs...)
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

// langName names the language code in the printer's language ("German"),
// or gives the code itself, made safe, when kurs has no such language.
func (e *env) langName(code string) string {
	if i18n.Supported(code) {
		return e.p.T("validate.lang_" + code)
	}
	return textsafe.Line(e.p, code, textsafe.ValueMax)
}

// Package report writes the grading documents: the result document of
// one submission and of a class (JSON), JUnit, Gradescope's results.json,
// GitHub's annotations and job summary, the class's CSV, its table and
// details in the terminal, and the teacher's class report in HTML. It
// builds on package explain, which words each result.
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/termdoc"
)

// Format is one output format of kurs grade: the name --format takes and
// the functions that write it, for one submission, for a batch, or both.
// Every function returns the error of its writer, so that a full disk or
// a closed pipe is not taken for a written document.
type Format struct {
	// Name is what --format takes.
	Name string
	// Note is the id of a message of a few words that kurs help grade
	// says about the format, such as "one JSON document"; "" for none.
	Note string
	// Single writes the results of one submission; nil when the format
	// describes a class only.
	Single func(w io.Writer, p *i18n.Printer, graded []explain.Graded, run Run) error
	// Batch writes the results of a batch, from its document alone (so
	// that merged shards give the bytes of one run); exercises gives the
	// exercises' titles to formats that show them. Nil when the format
	// describes one submission only.
	Batch func(w io.Writer, p *i18n.Printer, b *Batch, exercises []*course.Exercise) error
	// Titles reports whether Batch needs the course's exercises (their
	// titles, their hidden tests), which a batch's document does not
	// hold: kurs grade merge then takes them from the course that graded.
	Titles bool
	// Summary, when set, writes Markdown on one submission for the job
	// summary of the CI, which kurs grade appends it to.
	Summary func(w io.Writer, p *i18n.Printer, graded []explain.Graded, run Run) error
}

// formats are kurs grade's formats, in the order messages list them.
// Adding a format is adding it here.
var formats = []Format{
	{Name: "json", Note: "grade.format_json", Single: singleJSON, Batch: batchJSON},
	{Name: "junit", Single: JUnit, Batch: batchJUnit, Titles: true},
	{Name: "gradescope", Note: "grade.format_gradescope", Single: Gradescope},
	{Name: "github", Note: "grade.format_github", Single: singleGitHub, Summary: GitHubSummary},
	{Name: "csv", Batch: batchCSV},
	{Name: "text", Single: singleText, Batch: batchText},
	{Name: "html", Note: "grade.format_html", Batch: classReport, Titles: true},
}

// Formats returns every format, in the order messages list them.
func Formats() []Format { return append([]Format(nil), formats...) }

// LookupFormat returns the format called name.
func LookupFormat(name string) (Format, bool) {
	for _, f := range formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// FormatNames returns the names of the formats that describe a batch
// (batch true) or one submission (batch false).
func FormatNames(batch bool) []string {
	var names []string
	for _, f := range formats {
		if f.serves(batch) {
			names = append(names, f.Name)
		}
	}
	return names
}

// serves reports whether the format describes a batch (batch true) or one
// submission.
func (f Format) serves(batch bool) bool {
	if batch {
		return f.Batch != nil
	}
	return f.Single != nil
}

// singleJSON writes the result document of one submission, naming the
// course that graded.
func singleJSON(w io.Writer, p *i18n.Printer, graded []explain.Graded, run Run) error {
	d := NewDocument(p, graded)
	d.Course, d.Kurs, d.Seed = run.Course, run.Kurs, run.Seed
	return JSON(w, d)
}

func batchJSON(w io.Writer, _ *i18n.Printer, b *Batch, _ []*course.Exercise) error {
	return JSON(w, b)
}

// singleGitHub writes the annotations, and a notice with the seed and
// what graded: the job summary says them too, but a step without
// $GITHUB_STEP_SUMMARY (another CI, a local run) has only stdout.
func singleGitHub(w io.Writer, p *i18n.Printer, graded []explain.Graded, run Run) error {
	if err := GitHub(w, p, graded, run.Dir); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "::notice title=kurs::%s\n", data(strings.TrimSpace(seedLine(p, graded, run.Seed)+" "+gradedBy(p, run.Course, run.Kurs))))
	return err
}

// seedLine says how to repeat the run's random traces, or nothing when no
// graded exercise draws any (a run of quizzes alone): the seed would
// repeat nothing there.
func seedLine(p *i18n.Printer, graded []explain.Graded, seed uint64) string {
	for _, g := range graded {
		if g.Exercise == nil {
			continue
		}
		for _, t := range g.Exercise.Suite.Tests {
			if t.Random > 0 {
				return p.T("grade.seed", "Seed", seed)
			}
		}
	}
	return ""
}

func batchCSV(w io.Writer, _ *i18n.Printer, b *Batch, _ []*course.Exercise) error {
	return CSV(w, b.ExerciseIDs, b.Rows(), CSVRun{Seed: b.Seed, Course: b.Course, Kurs: b.Kurs})
}

// singleText writes what kurs check shows, the seed that repeats it, and
// what graded, wrapped to run.Width as kurs check wraps, and as a class's
// text breaks the course's hash.
func singleText(w io.Writer, p *i18n.Printer, graded []explain.Graded, run Run) error {
	if err := explain.WriteText(w, p, graded, explain.TextOptions{Verbose: run.Verbose, Width: run.Width}); err != nil {
		return err
	}
	var lines []string
	if seed := seedLine(p, graded, run.Seed); seed != "" {
		lines = explain.WrapHanging(seed, "", "", run.Width)
	}
	lines = append(lines, breakLong(explain.WrapHanging(gradedBy(p, run.Course, run.Kurs), "", "", run.Width), run.Width)...)
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

// gradedBy names the course (its content hash) and the kurs build that
// graded, as every format says it.
func gradedBy(p *i18n.Printer, course, kurs string) string {
	return p.T("grade.graded_by", "Course", course, "Kurs", kurs)
}

// batchText writes the batch's table for a file, 80 columns wide, and
// the seed that repeats it.
func batchText(w io.Writer, p *i18n.Printer, b *Batch, exercises []*course.Exercise) error {
	return BatchText(w, p, b, BatchTextOptions{Width: termdoc.DefaultWidth, Exercises: exercises})
}

// BatchTextOptions say how BatchText writes a class.
type BatchTextOptions struct {
	// Width is the most columns a line takes; no limit when it is not
	// positive.
	Width int
	// Verbose adds, per exercise, what its failing submissions show,
	// grouped as the class report groups them, each group with its
	// submissions: the teacher's -v, as a learner's explains every
	// failing test.
	Verbose bool
	// Exercises give the groups the exercises' titles, their tests' and
	// misconceptions' titles and their quizzes' options; without one, an
	// exercise's groups show ids.
	Exercises []*course.Exercise
}

// BatchText writes the batch's table (see classTable), with opt.Verbose what
// the failing submissions show, the seed that repeats it and what graded:
// what kurs
// grade --submissions and kurs grade merge show in a terminal of that
// width.
func BatchText(w io.Writer, p *i18n.Printer, b *Batch, opt BatchTextOptions) error {
	if err := classTable(w, p, b.ExerciseIDs, b.Rows(), opt.Width); err != nil {
		return err
	}
	if opt.Verbose {
		if err := classDetails(w, p, b, opt.Exercises, opt.Width); err != nil {
			return err
		}
	}
	lines := append(explain.WrapHanging(classSeed(p, b.Seed), "", "", opt.Width), breakLong(explain.WrapHanging(gradedBy(p, b.Course, b.Kurs), "", "", opt.Width), opt.Width)...)
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

// breakLong breaks every line of lines wider than width columns (no limit
// when width is not positive) into pieces of width columns: a course's
// hash is one word of 71 characters, wider than a narrow terminal.
func breakLong(lines []string, width int) []string {
	if width <= 0 {
		return lines
	}
	var out []string
	for _, l := range lines {
		for termdoc.Width(l) > width {
			r := []rune(l)
			n := 0
			for w := 0; n < len(r) && w+termdoc.Width(string(r[n])) <= width; n++ {
				w += termdoc.Width(string(r[n]))
			}
			n = max(n, 1) // a character wider than width stands alone
			out, l = append(out, string(r[:n])), string(r[n:])
		}
		out = append(out, l)
	}
	return out
}

// classSeed says how to repeat the random traces of a class. A batch's
// document does not say whether it was graded at once or in shards, and
// must not (merged shards give the bytes of one run), so the line is true
// of both: the same seed repeats the traces either way, as every
// submission of a run gets the same ones.
func classSeed(p *i18n.Printer, seed uint64) string {
	return p.T("grade.seed_class", "Seed", seed)
}

package cli

import (
	"flag"

	"github.com/kurs-course/kurs/report"
)

func gradeVerb() *verb {
	f := &checkFlags{grading: true}
	return &verb{name: "grade", flags: func(fs *flag.FlagSet) {
		f.register(fs)
		fs.StringVar(&f.format, "format", "text", "")
	}, run: func(e *env, args []string) int {
		if f.format != "json" && f.format != "text" {
			return e.usage("error.format", "Format", f.format, "Known", "json, text")
		}
		_, graded, code := e.runChecks(f, args)
		if graded == nil {
			return code
		}
		if f.format == "json" {
			_ = report.JSON(e.Out, report.NewDocument(e.p, graded))
		} else {
			_ = report.Text(e.Out, e.p, graded, f.verbose)
		}
		return code
	}}
}

package explain

import (
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// Bound returns a copy of f whose strings are fit to show: each escaped to
// one line and cut to textsafe.ValueMax, with the note on what was cut in
// p's language. It is for views that show a failure's fields themselves,
// such as the web UI's trace table; the explanations of this package bound
// what they show already. Bound(p, nil) is nil.
func Bound(p *i18n.Printer, f *harness.Failure) *harness.Failure {
	if f == nil {
		return nil
	}
	line := func(s string) string { return textsafe.Line(p, s, textsafe.ValueMax) }
	result := func(r harness.Result) harness.Result { return harness.Result{Ret: line(r.Ret), Obs: line(r.Obs)} }
	b := *f
	b.Call, b.Observe, b.Panic, b.Frame, b.Given = line(f.Call), line(f.Observe), line(f.Panic), line(f.Frame), line(f.Given)
	b.Want, b.Got = result(f.Want), result(f.Got)
	b.Done = make([]harness.Done, len(f.Done))
	for i, d := range f.Done {
		b.Done[i] = harness.Done{Call: line(d.Call), Got: result(d.Got)}
	}
	if f.Done == nil {
		b.Done = nil
	}
	return &b
}

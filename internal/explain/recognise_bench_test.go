package explain_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
)

// BenchmarkWrongSolution measures what a learner waits for when a check
// fails: the check of a wrong token bucket (testdata/learners) and its
// explanation, rendered as kurs check shows it ("check"), the explanation
// alone on the same result ("report"), and the explanation of a course read
// afresh, the first check after start-up ("first-report"), and naming
// the misconception alone ("recognise"). Naming a misconception must add
// nothing a learner could notice: a check that names one costs at most
// 1.1 times one that does not, so recognise must stay under a tenth of
// check.
func BenchmarkWrongSolution(b *testing.B) {
	c, err := course.Load(kurs.Content())
	if err != nil {
		b.Fatal(err)
	}
	ex, _ := c.Exercise("tokenbucket")
	data, err := os.ReadFile("testdata/learners/tokenbucket/no-cap/tokenbucket.go")
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "tokenbucket")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenbucket.go"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	ck := &checker.Checker{}
	p := i18n.New("en")
	// What kurs check shows: the explanation, rendered as text.
	show := func(ex *course.Exercise, res *checker.Result) {
		explain.Explain(p, ex, res, explain.Options{})
		if err := explain.WriteText(io.Discard, p, []explain.Graded{{Exercise: ex, Result: res}}, explain.TextOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	res, err := ck.Check(context.Background(), ex, dir)
	if err != nil || res.Status != checker.Fail {
		b.Fatalf("want a failing check, got %v %v", res, err)
	}
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			res, err := ck.Check(context.Background(), ex, dir)
			if err != nil {
				b.Fatal(err)
			}
			show(ex, res)
		}
	})
	b.Run("report", func(b *testing.B) {
		for b.Loop() {
			show(ex, res)
		}
	})
	// What naming alone adds to a check: recognising the misconception
	// in the result, compared with "check" measured in the same run.
	b.Run("recognise", func(b *testing.B) {
		for b.Loop() {
			if explain.Recognise(ex, res) == nil {
				b.Fatal("the wrong token bucket is not named")
			}
		}
	})
	b.Run("first-report", func(b *testing.B) {
		for b.Loop() {
			c, _ := course.Load(kurs.Content())
			ex, _ := c.Exercise("tokenbucket")
			show(ex, res)
		}
	})
}

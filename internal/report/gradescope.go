package report

import (
	"bytes"
	"io"
	"strconv"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/explain"
)

// Gradescope's results.json, as its autograder specification describes it
// (https://gradescope-autograders.readthedocs.io/en/latest/specs/).
type (
	gradescopeResults struct {
		Score            int              `json:"score"`
		ExecutionTime    int              `json:"execution_time"` // whole seconds, as in the specification's example
		Output           string           `json:"output"`
		OutputFormat     string           `json:"output_format"`
		Visibility       string           `json:"visibility"`
		StdoutVisibility string           `json:"stdout_visibility"`
		ExtraData        gradescopeExtra  `json:"extra_data"`
		Tests            []gradescopeTest `json:"tests"`
	}
	gradescopeExtra struct {
		Course   string `json:"course"`
		Kurs     string `json:"kurs"`
		Seed     uint64 `json:"seed"`
		MaxScore int    `json:"max_score"`
	}
	gradescopeTest struct {
		Name         string   `json:"name"`
		Number       string   `json:"number"`
		Score        int      `json:"score"`
		MaxScore     int      `json:"max_score"`
		Status       string   `json:"status"`
		Output       string   `json:"output"`
		OutputFormat string   `json:"output_format"`
		Visibility   string   `json:"visibility"`
		Tags         []string `json:"tags"`
	}
)

// Gradescope writes the results as Gradescope's results.json: one
// Gradescope test per exercise, worth the exercise's points, whose output
// explains the result as kurs check does, so that the tests' scores add up
// to the submission's score even for exercises scored all or nothing.
// Everything is visible to the student at once; the top-level output gives
// the total, and extra_data holds the course's content hash, the kurs
// build, the seed and the maximum score for the instructor's exports.
//
// A test's output is escaped (see package textsafe) and holds at most
// gradescopeOutputMax bytes, the note on what was cut included: what the
// learner's code printed is cut first, then the explanation. The whole
// results.json holds at most gradescopeMax bytes: when the outputs
// together would make it larger, every test's output is cut to the same
// largest bound that fits, so a short one stays whole and the long ones
// share the rest, each ending with a note on what was cut. A flooding
// submission's tests stay readable on Gradescope's page, and its
// results.json small, however many of its exercises flood.
//
// execution_time is the run's wall-clock time (run.Elapsed) in whole
// seconds, rounded up; it is the only field that differs between two runs
// on the same submission.
func Gradescope(w io.Writer, p *i18n.Printer, graded []explain.Graded, run Run) error {
	encode := func(limit int) []byte {
		var b bytes.Buffer
		_ = JSON(&b, gradescope(p, graded, run, limit)) // a bytes.Buffer takes every write
		return b.Bytes()
	}
	data := encode(gradescopeOutputMax)
	if len(data) > gradescopeMax {
		// The largest bound on each output that keeps the document
		// within gradescopeMax; the smallest still explains a little.
		lo, hi := gradescopeOutputMin, gradescopeOutputMax
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if len(encode(mid)) <= gradescopeMax {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		data = encode(lo)
	}
	_, err := w.Write(data)
	return err
}

// gradescope builds the results with each test's output cut to limit
// bytes.
func gradescope(p *i18n.Printer, graded []explain.Graded, run Run, limit int) gradescopeResults {
	doc := gradescopeResults{
		OutputFormat:     "text",
		Visibility:       "visible",
		StdoutVisibility: "hidden",
		ExtraData:        gradescopeExtra{Course: run.Course, Kurs: run.Kurs, Seed: run.Seed},
		Tests:            []gradescopeTest{},
	}
	passed := 0
	for i, g := range graded {
		res := g.Result
		t := gradescopeTest{
			Name:         res.Exercise + ": " + g.Exercise.Title.In(p.Lang()),
			Number:       strconv.Itoa(i + 1),
			Score:        res.Score,
			MaxScore:     res.MaxScore,
			Status:       "failed",
			Output:       studentText(p, g, limit),
			OutputFormat: "text",
			Visibility:   "visible",
			Tags:         []string{res.Exercise, string(res.Status)},
		}
		if res.Status == checker.Pass {
			t.Status = "passed"
			passed++
		}
		doc.Score += res.Score
		doc.ExtraData.MaxScore += res.MaxScore
		doc.Tests = append(doc.Tests, t)
	}
	doc.ExecutionTime = int((run.Elapsed + time.Second - 1) / time.Second)
	// Students read the output; the seed, a note for whoever runs kurs
	// grade again, stays in extra_data.
	doc.Output = p.T("result.total", "Count", len(graded), "Passed", passed, "Total", len(graded), "Score", doc.Score, "Max", doc.ExtraData.MaxScore)
	return doc
}

const (
	// gradescopeMax bounds the whole results.json of one submission.
	gradescopeMax = 8 << 10
	// gradescopeOutputMax bounds the output of one Gradescope test.
	gradescopeOutputMax = 8 << 10
	// gradescopeOutputMin is the least a test's output is cut to: the
	// summary line and the note on what was cut.
	gradescopeOutputMin = 160
)

package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/textsafe"
)

//go:embed class.html
var classHTML string

// classTemplate is parsed on first use, not at every start of kurs.
var classTemplate = sync.OnceValue(func() *template.Template { return template.Must(template.New("class").Parse(classHTML)) })

// classGroups is how many of the most common unnamed behaviours the class
// report shows per exercise; the rest are counted together.
const classGroups = 5

// classReport writes the class report of a batch: one HTML file that opens
// offline (inline SVG and CSS, no script, nothing loaded from elsewhere)
// with the distribution of the total scores, the pass rate of each
// exercise and, per exercise, what the failing submissions show (see
// classGroupsOf: the misconceptions named, the other behaviours, a quiz's
// wrong options, and the submissions that are no attempt), each linking to
// the submissions that share it. Texts are in p's language; exercises gives the exercises' titles
// (one missing from it shows its id).
//
// The report depends on nothing but the batch, so the merged documents of
// shards give the same bytes as one run.
func classReport(w io.Writer, p *i18n.Printer, b *Batch, exercises []*course.Exercise) error {
	v := newClassView(p, b, exercises)
	return classTemplate().Execute(w, v)
}

// classRate says how many of a class's total submissions pass an
// exercise, share is that as a percentage: a class of one is "the one
// submission", never "one of 1 submissions".
func classRate(p *i18n.Printer, pass, total int, share string) string {
	if total == 1 {
		return p.T("grade.class_rate_single", "Count", pass, "Share", share)
	}
	return p.T("grade.class_rate", "Count", pass, "Total", total, "Share", share)
}

type (
	classView struct {
		Lang, Title, Summary, Course, Seed string
		Labels                             map[string]string
		Empty                              bool
		Histogram                          histogram
		Rates                              []rateRow
		Exercises                          []classExercise
		ExerciseIDs                        []string
		Rows                               []classRow
	}
	histogram struct {
		Width, Height, Base int
		Bars                []bar
		Title               string
	}
	bar struct {
		X, Y, W, H, LabelX, LabelY int
		Count, Score               int
		ShowScore                  bool
	}
	// rateRow is an exercise's pass-rate bar. The id and the label are
	// text of the page, not of the drawing, so that they keep their size
	// and wrap on a narrow screen while the bar shrinks.
	rateRow struct {
		ID string
		// Widths in units of a bar rateWidth wide: each submission is in
		// one of the four segments, so the bar of the whole class is
		// 100 %.
		Pass, Fail, Error, None int
		FailX, ErrorX, NoneX    int
		Width                   int
		Label                   string
	}
	classExercise struct {
		ID, Title, Rate string
		// Sections are what the failing submissions show, in order:
		// the named misconceptions, the unnamed behaviours, the quiz's
		// wrong options, and the submissions that are no attempt or
		// could not be tested.
		Sections []classSection
	}
	classSection struct {
		// Kind names the section ("named", …, "apart", "none"); the
		// page colours the shares of "apart" and "none" as the pass-rate
		// bars colour the untestable and the not attempted.
		Kind, Heading string
		Groups        []classGroup
		Other         string
	}
	classGroup struct {
		Text  string
		Share int // percent, for the bar beside the text
		Subs  []classLink
	}
	classLink struct{ ID, Anchor string }
	classRow  struct {
		ID, Anchor string
		Cells      []classCell
		Total      string
	}
	classCell struct{ Text, Class string }
)

// Layout of the drawings, in pixels.
const (
	histWidth  = 640
	histHeight = 220
	histBase   = 190 // the x axis
	rateWidth  = 400 // the bar of 100 %
)

func newClassView(p *i18n.Printer, b *Batch, exercises []*course.Exercise) *classView {
	total := len(b.Submissions)
	titles := map[string]string{}
	for _, ex := range exercises {
		titles[ex.ID] = ex.Title.In(p.Lang())
	}
	v := &classView{
		Lang:  p.Lang(),
		Title: p.T("grade.class_title"),
		Summary: p.T("grade.class_summary", "Count", total,
			"Exercises", p.T("grade.class_summary_exercises", "Count", len(b.ExerciseIDs))),
		Course:      gradedBy(p, b.Course, b.Kurs),
		Seed:        classSeed(p, b.Seed),
		Empty:       total == 0,
		ExerciseIDs: b.ExerciseIDs,
		Labels: map[string]string{
			"scores":      p.T("grade.class_scores"),
			"rates":       p.T("grade.class_rates"),
			"failures":    p.T("grade.class_failures"),
			"table":       p.T("grade.class_table"),
			"submission":  p.T("grade.col_submission"),
			"points":      p.T("grade.col_points"),
			"pass":        p.T("grade.class_pass"),
			"fail":        p.T("grade.class_fail"),
			"error":       p.T("grade.class_error"),
			"unattempted": p.T("grade.class_unattempted"),
			"none":        p.T("grade.class_none"),
			"empty":       p.T("grade.class_empty"),
		},
	}
	share := func(n int) string { return p.T("grade.class_percent", "Percent", percent(n, total)) }
	anchors := map[string]string{}
	for i, e := range b.Submissions {
		anchors[e.ID] = "s" + strconv.Itoa(i+1)
	}
	link := func(id string) classLink { return classLink{ID: textsafe.EscapeLine(id), Anchor: anchors[id]} }

	// The distribution of the total scores.
	maxScore := 0
	counts := map[int]int{}
	for _, e := range b.Submissions {
		if e.Document != nil {
			maxScore = max(maxScore, e.MaxScore)
			counts[e.Score]++
		}
	}
	most := 1
	for _, n := range counts {
		most = max(most, n)
	}
	v.Histogram = histogram{Width: histWidth, Height: histHeight, Base: histBase,
		Title: p.T("grade.class_scores_title", "Max", maxScore)}
	slot := (histWidth - 40) / (maxScore + 1)
	every := 1 + maxScore/20 // at most about 20 score labels
	for s := 0; s <= maxScore; s++ {
		h := counts[s] * (histBase - 30) / most
		x := 20 + s*slot
		v.Histogram.Bars = append(v.Histogram.Bars, bar{
			X: x + slot/8, W: max(1, slot-slot/4), Y: histBase - h, H: h,
			LabelX: x + slot/2, LabelY: histBase - h - 6, Count: counts[s], Score: s,
			ShowScore: s%every == 0 || s == maxScore,
		})
	}

	// Per exercise: the pass rate and what the failing submissions show.
	courseEx := map[string]*course.Exercise{}
	for _, ex := range exercises {
		courseEx[ex.ID] = ex
	}
	for _, id := range b.ExerciseIDs {
		ce, n := classGroupsOf(p, b, id, courseEx[id], classGroups, link, share)
		ce.Title = titles[id]
		// The shares in words are the whole class split by the largest
		// remainder, so that they add up to 100 % as the bar's widths
		// add up to it (1, 2, 2 and 2 of 7: 14, 29, 29 and 28 %, not
		// 101 %).
		counts := []int{n.Pass, n.Fail, n.Error, n.None}
		rateShare := splitShares(p, counts, total)
		ce.Rate = classRate(p, n.Pass, total, rateShare(0))
		v.Exercises = append(v.Exercises, ce)

		row := rateRow{ID: id, Width: rateWidth, Label: rateLabelOf(p, counts, rateShare)}
		w := apportion(counts, total, rateWidth)
		row.Pass, row.Fail, row.Error, row.None = w[0], w[1], w[2], w[3]
		row.FailX = row.Pass
		row.ErrorX = row.FailX + row.Fail
		row.NoneX = row.ErrorX + row.Error
		v.Rates = append(v.Rates, row)
	}

	// Every submission, the target of the links.
	for _, e := range b.Submissions {
		row := classRow{ID: textsafe.EscapeLine(e.ID), Anchor: anchors[e.ID]}
		for _, id := range b.ExerciseIDs {
			c := classCell{}
			if ex := exerciseOf(e, id); ex != nil {
				blank := ex.Unanswered || courseEx[id] != nil && courseEx[id].Traits().Answers && ex.Status == string(checker.Fail) && unanswered(ex)
				c = classCell{Text: classCellText(p, checker.Status(ex.Status), checker.ProblemKind(ex.Problem), ex.Skeleton, blank, ex.Score, ex.MaxScore), Class: ex.Status}
			}
			row.Cells = append(row.Cells, c)
		}
		if e.Document != nil {
			row.Total = fmt.Sprintf("%d/%d", e.Score, e.MaxScore)
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// rateLabelOf says what a pass-rate bar shows: the share that passed,
// and of the others only those that occur, to keep the line short.
// counts are passed, failed, not testable and not attempted; share(i)
// gives the share of counts[i].
func rateLabelOf(p *i18n.Printer, counts []int, share func(int) string) string {
	parts := []string{p.T("grade.class_rate_pass", "Share", share(0))}
	for i, key := range []string{"grade.class_rate_fail", "grade.class_rate_error", "grade.class_rate_none"} {
		if counts[i+1] > 0 {
			parts = append(parts, p.T(key, "Share", share(i+1)))
		}
	}
	return strings.Join(parts, ", ")
}

// apportion divides whole, in whole units, among counts in proportion to
// their part of total, by the largest remainder: each gets its share
// rounded down, and the units left go to the largest remainders (the
// earlier first when equal), so that the parts add up to whole when the
// counts add up to total. All are 0 when total is.
func apportion(counts []int, total, whole int) []int {
	parts := make([]int, len(counts))
	if total == 0 {
		return parts
	}
	rem := make([]int, len(counts)) // -1 once a part got its unit
	left := whole
	for i, c := range counts {
		parts[i], rem[i] = c*whole/total, c*whole%total
		left -= parts[i]
	}
	for ; left > 0; left-- {
		best := 0
		for i, r := range rem {
			if r > rem[best] {
				best = i
			}
		}
		if rem[best] <= 0 {
			break
		}
		parts[best]++
		rem[best] = -1
	}
	return parts
}

// splitShares returns the shares of counts, which split a class of total
// submissions, in whole percent by the largest remainder (see apportion),
// worded: share(i) is the share of counts[i], and the shares add up to
// 100 %.
func splitShares(p *i18n.Printer, counts []int, total int) func(int) string {
	pcts := apportion(counts, total, 100)
	return func(i int) string { return p.T("grade.class_percent", "Percent", pcts[i]) }
}

// exerciseOf returns a submission's entry for exercise id, or nil.
func exerciseOf(e Entry, id string) *Exercise {
	if e.Document == nil {
		return nil
	}
	for i := range e.Exercises {
		if e.Exercises[i].ID == id {
			return &e.Exercises[i]
		}
	}
	return nil
}

// firstFailing returns an exercise's first test that does not pass.
func firstFailing(ex *Exercise) *TestCase {
	for i := range ex.Tests {
		if ex.Tests[i].Status != string(checker.Pass) {
			return &ex.Tests[i]
		}
	}
	return nil
}

// percent returns n of total in whole percent, rounded half up.
func percent(n, total int) int {
	if total == 0 {
		return 0
	}
	return (200*n + total) / (2 * total)
}

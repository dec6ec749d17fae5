package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// classDetails writes, per exercise of the batch, its pass rate, the shares
// the report's bar draws (failed, not testable, not attempted yet), and what
// its failing submissions show, grouped and worded as the class report
// groups them (see classGroupsOf), every group with the submissions in
// it, in lines of at most width columns (no limit when width is not
// positive). Unlike the report, it lists every unnamed behaviour: the
// teacher asked to see each submission's.
func classDetails(w io.Writer, p *i18n.Printer, b *Batch, exercises []*course.Exercise, width int) error {
	total := len(b.Submissions)
	byID := map[string]*course.Exercise{}
	for _, ex := range exercises {
		byID[ex.ID] = ex
	}
	link := func(id string) classLink { return classLink{ID: textsafe.EscapeLine(id)} }
	share := func(n int) string { return p.T("grade.class_percent", "Percent", percent(n, total)) }
	var lines []string
	for _, id := range b.ExerciseIDs {
		ex := byID[id]
		ce, n := classGroupsOf(p, b, id, ex, 0, link, share)
		heading := id
		if ex != nil {
			heading += " — " + ex.Title.In(p.Lang())
		}
		// The shares the report's bar draws, adding up to 100 % as on
		// the report's page (see splitShares).
		counts := []int{n.Pass, n.Fail, n.Error, n.None}
		splitShare := splitShares(p, counts, total)
		rate := classRate(p, n.Pass, total, splitShare(0))
		lines = append(lines, "")
		lines = append(lines, explain.WrapHanging(heading, "", "  ", width)...)
		lines = append(lines, explain.WrapHanging(rate, "  ", "    ", width)...)
		if n.Pass < total {
			// Named as the report's legend names them: one name for each.
			split := rateLabelOf(p, counts, splitShare)
			lines = append(lines, explain.WrapHanging(split, "  ", "    ", width)...)
		}
		for _, sec := range ce.Sections {
			for _, g := range sec.Groups {
				ids := make([]string, len(g.Subs))
				for i, s := range g.Subs {
					ids[i] = s.ID
				}
				// The groups' words hold what submissions wrote (a
				// quiz's answer, a test's message), which a terminal
				// must not obey. The submissions follow on lines of
				// their own: the words may end in a full stop.
				lines = append(lines, explain.WrapHanging(textsafe.EscapeLine(g.Text), "  ", "    ", width)...)
				lines = append(lines, explain.WrapHanging(strings.Join(ids, ", "), "      ", "      ", width)...)
			}
		}
	}
	lines = append(lines, "")
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

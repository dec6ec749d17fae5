package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// Submission is one submission's results in a batch: its id (the name of
// its folder) and its graded exercises.
type Submission struct {
	ID     string
	Graded []Graded
}

// score returns the submission's score in exercise id and whether it was
// graded in it.
func (s *Submission) score(id string) (int, bool) {
	for _, g := range s.Graded {
		if g.Result.Exercise == id {
			return g.Result.Score, true
		}
	}
	return 0, false
}

func (s *Submission) total() (score, maxScore int) {
	for _, g := range s.Graded {
		score += g.Result.Score
		maxScore += g.Result.MaxScore
	}
	return score, maxScore
}

// CSV writes a batch as a table for a gradebook: a header row "id", the
// exercise ids, "total", "seed"; then one row per submission with its
// points in each exercise and in all, and the seed of the random traces
// it was graded with (the same in every row: a gradebook import takes a
// comment line for a row, so the seed goes in a column of its own). An
// exercise the submission was not graded in stays empty.
//
// Submission ids are folder names, which students may choose; one that a
// spreadsheet would run as a formula (starting with =, +, -, @, a tab or a
// carriage return) gets a leading apostrophe, as OWASP advises; control
// characters in them are escaped (see package textsafe), since a CSV file
// is often looked at in a terminal.
func CSV(w io.Writer, exercises []string, subs []Submission, seed uint64) error {
	cw := csv.NewWriter(w)
	header := append(append([]string{"id"}, exercises...), "total", "seed")
	if err := cw.Write(header); err != nil {
		return err
	}
	for i := range subs {
		s := &subs[i]
		row := []string{inert(textsafe.EscapeLine(s.ID))}
		for _, id := range exercises {
			v := ""
			if n, ok := s.score(id); ok {
				v = strconv.Itoa(n)
			}
			row = append(row, v)
		}
		score, _ := s.total()
		row = append(row, strconv.Itoa(score), strconv.FormatUint(seed, 10))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// inert keeps a spreadsheet from reading a cell as a formula.
func inert(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// Table writes a batch for people: one aligned row per submission with
// each exercise's verdict and points, then how many submissions pass every
// exercise.
func Table(w io.Writer, p *i18n.Printer, exercises []string, subs []Submission) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\n", p.T("grade.col_submission"), strings.Join(exercises, "\t"), p.T("grade.col_points"))
	complete := 0
	for i := range subs {
		s := &subs[i]
		all := true
		// A folder name may hold control characters that a terminal
		// would obey.
		cells := []string{textsafe.EscapeLine(s.ID)}
		for _, id := range exercises {
			c := ""
			for _, g := range s.Graded {
				if g.Result.Exercise != id {
					continue
				}
				var problem checker.ProblemKind
				if g.Result.Problem != nil {
					problem = g.Result.Problem.Kind
				}
				all = all && g.Result.Status == checker.Pass
				// The document marks a quiz with no case answered, so
				// that merged shards need no course to say so.
				c = classCellText(p, g.Result.Status, problem, g.Untouched, g.Unanswered, g.Result.Score, g.Result.MaxScore)
			}
			cells = append(cells, c)
		}
		if all {
			complete++
		}
		score, maxScore := s.total()
		cells = append(cells, fmt.Sprintf("%d/%d", score, maxScore))
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, p.T("grade.batch_total", "Total", len(subs), "Complete", complete))
	return err
}

// classCellText is an exercise's cell in a table of a class: its mark and points,
// and, where the points alone would look alike, why. A submission without
// the exercise's code reads "– no code", not as a failing attempt; an
// unchanged skeleton, a quiz with no case answered (unanswered) and code
// that does not build say so.
func classCellText(p *i18n.Printer, status checker.Status, problem checker.ProblemKind, skeleton, unanswered bool, score, maxScore int) string {
	switch {
	case status == checker.Pass:
		return fmt.Sprintf("✓ %d/%d", score, maxScore)
	case problem == checker.ProblemNoFiles:
		return "– " + p.T("grade.cell_no_code")
	case skeleton:
		return fmt.Sprintf("✗ %d/%d %s", score, maxScore, p.T("grade.cell_skeleton"))
	case unanswered:
		return fmt.Sprintf("✗ %d/%d %s", score, maxScore, p.T("grade.cell_unanswered"))
	case problem == checker.ProblemCompile || problem == checker.ProblemAPI:
		return fmt.Sprintf("✗ %d/%d %s", score, maxScore, p.T("grade.cell_no_build"))
	}
	return fmt.Sprintf("✗ %d/%d", score, maxScore)
}

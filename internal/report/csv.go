package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/termdoc"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// Submission is one submission's results in a batch: its id (the name of
// its folder) and its graded exercises.
type Submission struct {
	ID     string
	Graded []explain.Graded
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
func CSV(w io.Writer, exercises []string, subs []Submission, run CSVRun) error {
	cw := csv.NewWriter(w)
	header := append(append([]string{"id"}, exercises...), "total", "seed", "course", "kurs")
	if err := cw.Write(header); err != nil {
		return err
	}
	for i := range subs {
		s := &subs[i]
		row := []string{inert(csvText(s.ID))}
		for _, id := range exercises {
			v := ""
			if n, ok := s.score(id); ok {
				v = strconv.Itoa(n)
			}
			row = append(row, v)
		}
		score, _ := s.total()
		row = append(row, strconv.Itoa(score), strconv.FormatUint(run.Seed, 10), run.Course, run.Kurs)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvText makes s safe for a CSV cell: tabs and line breaks stay what
// they are, as a CSV reader gives them back from a quoted cell (the
// writer quotes where needed), and every other control character is
// shown as an escape (see textsafe.EscapeLine).
func csvText(s string) string { return keepBreaks(s) }

// keepBreaks returns s with every control character but tab and line
// feed shown as an escape (see textsafe.EscapeLine): for formats whose
// readers take a tab and a line break back as they were (a quoted CSV
// cell, GitHub's %0A).
func keepBreaks(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexAny(s, "\t\n")
		if i < 0 {
			b.WriteString(textsafe.EscapeLine(s))
			return b.String()
		}
		b.WriteString(textsafe.EscapeLine(s[:i]))
		b.WriteByte(s[i])
		s = s[i+1:]
	}
}

// CSVRun is what every row of the CSV says about the run: the seed, and
// what graded (see Run).
type CSVRun struct {
	Seed         uint64
	Course, Kurs string
}

// inert keeps a spreadsheet from reading a cell as a formula.
func inert(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// classTable writes a batch for people, in lines of at most width columns (no
// limit when width is not positive): one aligned row per submission with
// each exercise's verdict and points, then how many submissions pass every
// exercise. When the rows are too wide, the exercises' columns are headed
// by their numbers, with a legend above the table; when even that is too
// wide, each submission gets a block of its own with its exercises side by
// side, in the same places in every block. Every form shows the same
// cells.
func classTable(w io.Writer, p *i18n.Printer, exercises []string, subs []Submission, width int) error {
	cells := make([][]string, len(subs))
	ids := make([]string, len(subs))
	totals := make([]string, len(subs))
	complete := 0
	for i := range subs {
		s := &subs[i]
		all := true
		// A folder name may hold control characters that a terminal
		// would obey.
		ids[i] = textsafe.EscapeLine(s.ID)
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
			cells[i] = append(cells[i], c)
		}
		if all {
			complete++
		}
		score, maxScore := s.total()
		totals[i] = fmt.Sprintf("%d/%d", score, maxScore)
	}
	grid := func(header []string) [][]string {
		rows := [][]string{append(append([]string{p.T("grade.col_submission")}, header...), p.T("grade.col_points"))}
		for i := range subs {
			rows = append(rows, append(append([]string{ids[i]}, cells[i]...), totals[i]))
		}
		return rows
	}
	numbers := make([]string, len(exercises))
	for i := range exercises {
		numbers[i] = strconv.Itoa(i + 1)
	}
	var lines []string
	if full := aligned(grid(exercises)); fits(full, width) {
		lines = full
	} else if legend, short := exerciseLegend(p, exercises, width), aligned(grid(numbers)); fits(short, width) && fits(legend, width) {
		lines = append(append(legend, ""), short...)
	} else {
		lines = append(submissionBlocks(p, exercises, ids, cells, totals, width), "")
	}
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, strings.Join(explain.WrapHanging(p.T("grade.batch_total", "Total", len(subs), "Complete", complete), "", "", width), "\n"))
	return err
}

// columnGap is the room between the columns of a table.
const columnGap = 2

// aligned lays rows out as a table: each column as wide as its widest
// cell, and columnGap columns between them; the last column is not
// padded.
func aligned(rows [][]string) []string {
	var widths []int
	for _, r := range rows {
		for j, c := range r {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], termdoc.Width(c))
		}
	}
	lines := make([]string, len(rows))
	for i, r := range rows {
		var b strings.Builder
		for j, c := range r {
			b.WriteString(c)
			if j < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[j]-termdoc.Width(c)+columnGap))
			}
		}
		lines[i] = b.String()
	}
	return lines
}

// fits reports whether every line is at most width columns wide; any
// line fits when width is not positive.
func fits(lines []string, width int) bool {
	for _, l := range lines {
		if width > 0 && termdoc.Width(l) > width {
			return false
		}
	}
	return true
}

// exerciseLegend says which exercise each number heads: "Exercises:
// 1 circuitbreaker, 2 tokenbucket, …", wrapped to width between entries.
func exerciseLegend(p *i18n.Printer, exercises []string, width int) []string {
	line := p.T("grade.legend")
	var lines []string
	for i, id := range exercises {
		entry := fmt.Sprintf("%d %s", i+1, id)
		if i < len(exercises)-1 {
			entry += ","
		}
		if termdoc.Width(line)+1+termdoc.Width(entry) > width && width > 0 {
			lines = append(lines, line)
			line = "  " + entry
			continue
		}
		line += " " + entry
	}
	return append(lines, line)
}

// submissionBlocks lays a class out as one block per submission: its id
// and points, then its exercises, each with its cell, in as many columns
// as fit the width (the same in every block, so that an exercise is in
// the same place in each).
func submissionBlocks(p *i18n.Printer, exercises, ids []string, cells [][]string, totals []string, width int) []string {
	const indent = 2
	perLine, idWidths, cellWidths := 0, []int(nil), []int(nil)
	for n := len(exercises); n >= 1 && perLine == 0; n-- {
		idWidths, cellWidths = make([]int, n), make([]int, n)
		for j, id := range exercises {
			idWidths[j%n] = max(idWidths[j%n], termdoc.Width(id))
			for i := range cells {
				cellWidths[j%n] = max(cellWidths[j%n], termdoc.Width(cells[i][j]))
			}
		}
		w := indent + (n-1)*columnGap
		for k := range n {
			w += idWidths[k] + columnGap + cellWidths[k]
		}
		if w <= width || width <= 0 || n == 1 {
			perLine = n
		}
	}
	// Where not even one exercise fits beside its cell, each cell goes
	// under its exercise.
	stacked := width > 0 && indent+idWidths[0]+columnGap+cellWidths[0] > width
	pad := strings.Repeat(" ", indent)
	var lines []string
	for i := range ids {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, p.T("grade.block_heading", "Submission", ids[i], "Points", totals[i]))
		if stacked {
			for j, id := range exercises {
				lines = append(lines, pad+id, pad+pad+cells[i][j])
			}
			continue
		}
		var b strings.Builder
		for j, id := range exercises {
			k := j % perLine
			if k == 0 {
				b.WriteString(pad)
			}
			c := cells[i][j]
			b.WriteString(id + strings.Repeat(" ", idWidths[k]-termdoc.Width(id)+columnGap) + c)
			if k < perLine-1 && j < len(exercises)-1 {
				b.WriteString(strings.Repeat(" ", cellWidths[k]-termdoc.Width(c)+columnGap))
				continue
			}
			lines = append(lines, strings.TrimRight(b.String(), " "))
			b.Reset()
		}
	}
	return lines
}

// classCellText is an exercise's cell in a table of a class: its mark and points,
// and, where the points alone would look alike, why. A submission without
// the exercise's code reads "– no code", not as a failing attempt; an
// unchanged skeleton, a quiz with no case answered (unanswered), code
// that does not build and code that could not be tested say so.
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
	case problem == checker.ProblemCompile:
		return fmt.Sprintf("✗ %d/%d %s", score, maxScore, p.T("grade.cell_no_build"))
	case problem == checker.ProblemAPI:
		// It builds: only its names or signatures are not the exercise's.
		return fmt.Sprintf("✗ %d/%d %s", score, maxScore, p.T("grade.cell_api"))
	case status == checker.Error:
		// A refused import, a misnamed package, a crash in init: no
		// test ran, which 0 points alone would not tell from failing
		// them all.
		return fmt.Sprintf("✗ %d/%d %s", score, maxScore, p.T("grade.cell_error"))
	}
	return fmt.Sprintf("✗ %d/%d", score, maxScore)
}

package termdoc

import (
	"strings"
	"unicode/utf8"

	east "github.com/yuin/goldmark/extension/ast"
)

// minColumn is the narrowest a column is squeezed to when a table is wider
// than the page, while there is room for it; narrower, most words break.
// A table that has not even that room gets narrower columns still: words
// broken in a cell read better than rows that the terminal breaks.
const minColumn = 8

// table draws a GFM table with box-drawing borders. Columns keep their
// natural width when the table fits; otherwise the wide ones give way and
// their cells wrap, and a rule then separates the rows so that a cell's
// lines stay recognisably together.
func (r *renderer) table(n *east.Table, width int) []string {
	var rows [][]string
	header := -1
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		if _, ok := row.(*east.TableHeader); ok {
			header = len(rows)
		}
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, r.inline(c))
		}
		rows = append(rows, cells)
	}
	cols := len(n.Alignments)
	for _, row := range rows {
		cols = max(cols, len(row))
	}
	if cols == 0 {
		return nil
	}
	natural := make([]int, cols)
	for _, row := range rows {
		for i, c := range row {
			natural[i] = max(natural[i], Width(c))
		}
	}
	widths := fit(natural, width-(3*cols+1))

	cellLines := make([][][]string, len(rows))
	multi := false
	for i, row := range rows {
		cellLines[i] = make([][]string, cols)
		for j := range cols {
			text := ""
			if j < len(row) {
				text = row[j]
			}
			cellLines[i][j] = wrapCell(text, widths[j])
			if len(cellLines[i][j]) > 1 {
				multi = true
			}
		}
	}

	rule := func(left, mid, right string) string {
		var b strings.Builder
		b.WriteString(left)
		for j, w := range widths {
			if j > 0 {
				b.WriteString(mid)
			}
			b.WriteString(strings.Repeat("─", w+2))
		}
		b.WriteString(right)
		return b.String()
	}
	out := []string{rule("┌", "┬", "┐")}
	for i := range rows {
		if i > 0 && (i == header+1 || multi) {
			out = append(out, rule("├", "┼", "┤"))
		}
		height := 0
		for _, c := range cellLines[i] {
			height = max(height, len(c))
		}
		for k := range height {
			var b strings.Builder
			b.WriteString("│")
			for j := range cols {
				text := ""
				if k < len(cellLines[i][j]) {
					text = cellLines[i][j][k]
				}
				align := east.AlignLeft
				if j < len(n.Alignments) {
					align = n.Alignments[j]
				}
				cell := pad(text, widths[j], align)
				if i == header {
					cell = r.style(bold, cell, boldOff)
				}
				b.WriteString(" " + cell + " │")
			}
			out = append(out, b.String())
		}
	}
	return append(out, rule("└", "┴", "┘"))
}

// fit shares avail columns among columns of the given natural widths: a
// column that needs less than an even share keeps its width, the others
// split what is left evenly, but none gets less than minColumn (or its
// natural width, if that is less).
func fit(natural []int, avail int) []int {
	widths := make([]int, len(natural))
	total := 0
	for _, w := range natural {
		total += w
	}
	if total <= avail {
		copy(widths, natural)
		return widths
	}
	done := make([]bool, len(natural))
	left, open := avail, len(natural)
	for changed := true; changed && open > 0; {
		changed = false
		share := left / open
		for i, w := range natural {
			if !done[i] && w <= share {
				widths[i], done[i] = w, true
				left -= w
				open--
				changed = true
			}
		}
	}
	floor := minColumn
	if open > 0 && left/open < minColumn {
		floor = max(left/open, 1)
	}
	for i, w := range natural {
		if !done[i] {
			widths[i] = min(w, max(floor, left/max(open, 1)))
		}
	}
	return widths
}

// wrapCell wraps a cell's text to width; a word longer than the column is
// cut, since a table cannot let it stick out.
func wrapCell(s string, width int) []string {
	var out []string
	for _, l := range wrap(s, width) {
		for Width(l) > width {
			head, tail := cut(l, width)
			out = append(out, head)
			l = tail
		}
		out = append(out, l)
	}
	return balance(out)
}

// cut splits s after width visible columns, keeping escape sequences with
// the part they precede.
func cut(s string, width int) (string, string) {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i = skipEscape(s, i)
			continue
		}
		if n == width {
			return s[:i], s[i:]
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return s, ""
}

// pad fills s with spaces to width, aligned as the table says.
func pad(s string, width int, align east.Alignment) string {
	gap := max(width-Width(s), 0)
	switch align {
	case east.AlignRight:
		return strings.Repeat(" ", gap) + s
	case east.AlignCenter:
		return strings.Repeat(" ", gap/2) + s + strings.Repeat(" ", gap-gap/2)
	}
	return s + strings.Repeat(" ", gap)
}

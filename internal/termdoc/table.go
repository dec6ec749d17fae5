package termdoc

import (
	"strings"
	"unicode/utf8"

	east "github.com/yuin/goldmark/extension/ast"

	"github.com/kurs-course/kurs/internal/term"
)

// table draws a GFM table with box-drawing borders. Columns keep their
// natural width when the table fits; otherwise the wide ones give way and
// their cells wrap at spaces, and if a row's cells do, a rule separates
// every row so that a cell's lines stay recognisably together. A table that cannot fit without
// breaking a word, because its longest words need more columns than the
// page has, is shown as records instead (see records).
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
	for i := range rows {
		for len(rows[i]) < cols {
			rows[i] = append(rows[i], "")
		}
	}
	natural := make([]int, cols)
	least := make([]int, cols)
	for _, row := range rows {
		for i, c := range row {
			natural[i] = max(natural[i], Width(c))
			least[i] = max(least[i], longestWord(c))
		}
	}
	widths, ok := fit(natural, least, width-(3*cols+1))
	if !ok {
		return r.records(rows, header, width)
	}

	cellLines := make([][][]string, len(rows))
	multi := false
	for i, row := range rows {
		cellLines[i] = make([][]string, cols)
		for j, text := range row {
			cellLines[i][j] = term.Wrap(text, widths[j])
			if len(cellLines[i][j]) > 1 && i != header {
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
					cell = r.style(term.Bold, cell, term.BoldOff)
				}
				b.WriteString(" " + cell + " │")
			}
			out = append(out, b.String())
		}
	}
	return append(out, rule("└", "┴", "┘"))
}

// records shows a table one row at a time, for pages too narrow for its
// columns: each cell on a line of its own after its column's header, the
// headers aligned, and a rule between the rows.
//
//	Tick              │ 3
//	B's response time │ 10
//	──────────────────┼────
//	Tick              │ 4
func (r *renderer) records(rows [][]string, header, width int) []string {
	var labels []string
	if header >= 0 {
		labels = rows[header]
	}
	labelW, labelLeast, valueLeast := 0, 0, 0
	for j := range rows[0] {
		if j < len(labels) {
			labelW = max(labelW, Width(labels[j]))
			labelLeast = max(labelLeast, longestWord(labels[j]))
		}
	}
	for i, row := range rows {
		if i == header {
			continue
		}
		for _, c := range row {
			valueLeast = max(valueLeast, longestWord(c))
		}
	}
	// The headers get at most two fifths of the page, unless a word of
	// theirs needs more; the values get the rest, and at least their
	// longest word if the page has room for it.
	labelW = max(min(labelW, width*2/5), labelLeast)
	labelW = max(min(labelW, width-3-valueLeast), labelLeast, 1)
	valueW := max(width-3-labelW, 1)

	var out []string
	for i, row := range rows {
		if i == header {
			continue
		}
		if len(out) > 0 {
			out = append(out, strings.Repeat("─", labelW+1)+"┼"+strings.Repeat("─", min(valueW+1, 8)))
		}
		for j, c := range row {
			label := ""
			if j < len(labels) {
				label = labels[j]
			}
			ls, vs := term.Wrap(label, labelW), term.Wrap(c, valueW)
			for k := range max(len(ls), len(vs)) {
				l, v := "", ""
				if k < len(ls) {
					l = ls[k]
				}
				if k < len(vs) {
					v = vs[k]
				}
				out = append(out, r.style(term.Bold, pad(l, labelW, east.AlignLeft), term.BoldOff)+" │ "+v)
			}
		}
	}
	return out
}

// longestWord returns the width of the widest word of s: the narrowest a
// column can be without breaking a word.
func longestWord(s string) int {
	w := 0
	for _, f := range Words(s) {
		w = max(w, Width(f))
	}
	return w
}

// fit shares avail columns among columns of the given natural widths,
// none narrower than its least width (its longest word). If the natural
// widths fit, they are kept. Otherwise a column that needs no more than
// an even share keeps its natural width, and the others split what is
// left evenly, each getting at least its least width. It reports false
// if even the least widths do not fit.
func fit(natural, least []int, avail int) ([]int, bool) {
	widths := make([]int, len(natural))
	total, need := 0, 0
	for i, w := range natural {
		total += w
		need += least[i]
	}
	if total <= avail {
		copy(widths, natural)
		return widths, true
	}
	if need > avail {
		return nil, false
	}
	done := make([]bool, len(natural))
	left, open := avail, len(natural)
	settle := func(i, w int) {
		widths[i], done[i] = w, true
		left -= w
		open--
	}
	// Columns that need more than a share get their least width first, so
	// that the others' shares cannot crowd them out; then the ones content
	// with less than a share keep their natural width.
	for changed := true; changed && open > 0; {
		changed = false
		share := left / open
		for i := range natural {
			if !done[i] && least[i] > share {
				settle(i, least[i])
				changed = true
			}
		}
		if changed {
			continue
		}
		for i := range natural {
			if !done[i] && natural[i] <= share {
				settle(i, natural[i])
				changed = true
			}
		}
	}
	if open == 0 {
		return widths, true
	}
	share, extra := left/open, left%open
	for i := range natural {
		if !done[i] {
			widths[i] = share
			if extra > 0 {
				widths[i]++
				extra--
			}
		}
	}
	return widths, true
}

// cut splits s after width visible columns, keeping escape sequences with
// the part they precede.
func cut(s string, width int) (string, string) {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i = term.SkipEscape(s, i)
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

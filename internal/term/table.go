package term

import "slices"

// ColumnGap is the space between two columns of a table kurs draws in
// text, such as a trace's steps: two spaces, so that a reader can tell
// where a cell ends even where the cells themselves hold spaces.
const ColumnGap = "  "

// TableFits reports whether a table of steps whose rows, laid out with
// their columns aligned, are rows is shown as that table on a terminal
// width columns wide: in a pipe or a file (width not positive), which
// keeps each row whole for grep, and where every row fits. Where one does
// not, the table is shown one block per step instead, the step's cells
// under each other, so that no row folds into the columns of the next.
// It is the one rule for kurs's tables of steps, kurs try's and those of
// the traces kurs check explains.
func TableFits(rows []string, width int) bool {
	return width <= 0 || !slices.ContainsFunc(rows, func(l string) bool { return Width(l) > width })
}

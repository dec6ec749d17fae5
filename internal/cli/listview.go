package cli

import (
	"strings"

	"github.com/kurs-course/kurs/internal/term"
)

// listLesson is a lesson as kurs list shows it.
type listLesson struct {
	title string
	rows  []listRow
}

// listRow is an exercise as kurs list shows it.
type listRow struct{ mark, id, title, state, points string }

// layoutList lays out kurs list. The rows are aligned across the whole
// course, not per lesson, one row an exercise. In a terminal of width
// columns too narrow for that (width > 0), each row is broken on purpose
// after the title: the state and the points go under it, and a long
// title goes on under itself. In a pipe (width 0) a row stays one line.
func layoutList(lessons []listLesson, width int) string {
	wid, wtitle, wstate := 0, 0, 0
	for _, l := range lessons {
		for _, r := range l.rows {
			wid, wtitle, wstate = max(wid, term.Width(r.id)), max(wtitle, term.Width(r.title)), max(wstate, term.Width(r.state))
		}
	}
	pad := func(s string, w int) string { return s + strings.Repeat(" ", max(0, w-term.Width(s))) }
	// "  · id  title  state  points"
	col := 2 + 2 + wid + 2
	one := width <= 0
	if !one {
		one = true
		for _, l := range lessons {
			for _, r := range l.rows {
				one = one && col+wtitle+2+wstate+2+term.Width(r.points) <= width
			}
		}
	}
	var b strings.Builder
	for _, l := range lessons {
		b.WriteString(term.Fit(l.title, width) + "\n")
		for _, r := range l.rows {
			head := "  " + r.mark + " " + pad(r.id, wid) + "  "
			if one {
				b.WriteString(head + pad(r.title, wtitle) + "  " + pad(r.state, wstate) + "  " + r.points + "\n")
				continue
			}
			indent := strings.Repeat(" ", col)
			for i, t := range term.Wrap(r.title, max(width-col, 20)) {
				if i == 0 {
					b.WriteString(head + t + "\n")
				} else {
					b.WriteString(indent + t + "\n")
				}
			}
			b.WriteString(indent + r.state + "  " + r.points + "\n")
		}
	}
	return b.String()
}

// layoutFiles lays out the files kurs init made, each with its exercise's
// title, in two columns; in a terminal of width columns too narrow for
// them (width > 0), each title goes under its file.
func layoutFiles(files [][2]string, width int) string {
	wfile, wtitle := 0, 0
	for _, f := range files {
		wfile, wtitle = max(wfile, term.Width(f[0])), max(wtitle, term.Width(f[1]))
	}
	var b strings.Builder
	for _, f := range files {
		if width <= 0 || 4+wfile+2+wtitle <= width {
			b.WriteString("  + " + f[0] + strings.Repeat(" ", wfile-term.Width(f[0])) + "  " + f[1] + "\n")
			continue
		}
		b.WriteString("  + " + f[0] + "\n" + term.Fit("      "+f[1], width) + "\n")
	}
	return b.String()
}

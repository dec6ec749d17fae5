package cli

import (
	"fmt"
	"io"
	"sync"

	"golang.org/x/term"

	"github.com/kurs-course/kurs/internal/validate"
)

// validateProgress tells an author on stderr how far kurs validate is,
// which takes minutes for a large course: on a terminal in one line,
// rewritten as each exercise is done and cleared at the end; elsewhere (a
// pipe, a CI log) a line per exercise and phase. stop ends it before the
// report is printed.
func (e *env) validateProgress() (report func(validate.Progress), stop func()) {
	w := e.Err
	fd, tty := terminal(w)
	var mu sync.Mutex
	open := false // a line is drawn on the terminal and not cleared
	report = func(p validate.Progress) {
		var msg string
		if p.Exercise == "" {
			msg = e.p.T("validate.progress_start_"+string(p.Phase), "Count", p.Runs, "Total", p.Total)
		} else {
			msg = e.p.T("validate.progress_"+string(p.Phase), "Exercise", p.Exercise, "Count", p.Runs, "Done", p.Done, "Total", p.Total)
		}
		mu.Lock()
		defer mu.Unlock()
		if !tty {
			fmt.Fprintln(w, msg)
			return
		}
		// Carriage return and erase line: the line is rewritten in place,
		// cut to the terminal's width so that it never wraps.
		if width, _, err := term.GetSize(fd); err == nil && width > 1 {
			msg = cut(msg, width-1)
		}
		io.WriteString(w, "\r\x1b[K"+msg)
		open = true
	}
	stop = func() {
		mu.Lock()
		defer mu.Unlock()
		if open {
			io.WriteString(w, "\r\x1b[K")
			open = false
		}
	}
	return report, stop
}

// cut shortens s to at most n characters, marking the cut with "…".
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

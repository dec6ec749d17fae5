package cli

import (
	"sync"

	"github.com/kurs-course/kurs/internal/validate"
)

// validateProgress tells an author on stderr how far kurs validate is,
// which takes minutes for a large course: on a terminal in one line,
// rewritten as each exercise is done and cleared at the end; elsewhere (a
// pipe, a CI log) a line per exercise and phase. stop ends it before the
// report is printed.
func (e *env) validateProgress() (report func(validate.Progress), stop func()) {
	t := e.stderr()
	var mu sync.Mutex
	open := false // a line is drawn on the terminal and not cleared
	report = func(p validate.Progress) {
		var msg string
		switch {
		case p.Exercise == "" && (p.Phase == validate.PhaseMutants || p.Phase == validate.PhaseChecks):
			// These start lines count exercises, not runs.
			msg = e.p.T("validate.progress_start_"+string(p.Phase), "Count", p.Total, "Total", p.Total)
		case p.Exercise == "":
			msg = e.p.T("validate.progress_start_"+string(p.Phase), "Count", p.Runs, "Total", p.Total)
		case p.Phase == validate.PhaseMutants && p.Mutants == 0:
			// Not one change compiled: said as the mutants' table will
			// say it, not as mutants that ran.
			msg = e.p.T("validate.exercise_done", "Exercise", p.Exercise, "Done", p.Done, "Total", p.Total,
				"Text", e.p.T("validate.mutants_none_invalid", "Count", p.Invalid))
		case p.Phase == validate.PhaseMutants:
			msg = e.p.T("validate.progress_mutants", "Exercise", p.Exercise, "Count", p.Mutants, "Done", p.Done, "Total", p.Total)
		default:
			msg = e.p.T("validate.progress_"+string(p.Phase), "Exercise", p.Exercise, "Count", p.Runs, "Done", p.Done, "Total", p.Total)
		}
		mu.Lock()
		defer mu.Unlock()
		// On a terminal the line is rewritten in place, cut to the
		// width so that it never wraps.
		t.Status(msg)
		open = t.IsTerminal()
	}
	stop = func() {
		mu.Lock()
		defer mu.Unlock()
		if open {
			t.ClearStatus()
			open = false
		}
	}
	return report, stop
}

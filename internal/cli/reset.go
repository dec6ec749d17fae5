package cli

import (
	"flag"
	"fmt"
	"path/filepath"
)

func resetVerb() *verb {
	all := false
	return &verb{name: "reset", flags: func(fs *flag.FlagSet) {
		fs.BoolVar(&all, "all", false, "")
	}, run: func(e *env, args []string) int {
		// Naming the exercises, or --all, is a deliberate choice: a bare
		// "kurs reset" must not reset everything.
		if all == (len(args) > 0) {
			return e.usage("error.reset_args")
		}
		ws, err := e.workspace()
		if err != nil {
			return e.setupError(err)
		}
		c, err := e.course(ws)
		if err != nil {
			return e.setupError(err)
		}
		exs, err := e.exercises(c, args)
		if err != nil {
			return e.setupError(err)
		}
		for _, ex := range exs {
			backup, err := ws.Reset(ex, e.p.Lang())
			if err != nil {
				fmt.Fprintln(e.Err, e.p.T("reset.failed", "Exercise", ex.ID, "Err", err))
				return ExitUsage
			}
			if backup == "" {
				fmt.Fprintln(e.Out, e.p.T("reset.clean", "Exercise", ex.ID))
				continue
			}
			fmt.Fprintln(e.Out, e.p.T("reset.done", "Exercise", ex.ID, "Backup", e.shortPath(filepath.Join(backup, ex.ID))+string(filepath.Separator)))
		}
		return ExitOK
	}}
}

// shortPath returns name relative to the working folder when that is
// shorter, as the learner would type it.
func (e *env) shortPath(name string) string {
	wd, err := e.Getwd()
	if err != nil {
		return name
	}
	if rel, err := filepath.Rel(wd, name); err == nil && len(rel) < len(name) {
		return rel
	}
	return name
}

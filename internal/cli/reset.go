package cli

import (
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kurs-course/kurs/internal/workspace"
)

// resetOptions are the options of kurs reset.
type resetOptions struct {
	all bool // every exercise
}

func resetVerb() *verb {
	return command("reset", func(o *resetOptions, fs *flag.FlagSet) {
		fs.BoolVar(&o.all, "all", false, "")
	}, reset)
}

// reset puts the skeletons of the named exercises back, keeping the
// learner's files in a backup.
func reset(e *env, o *resetOptions, args []string) error {
	// Naming the exercises, or --all, is a deliberate choice: a bare
	// "kurs reset" must not reset everything.
	if o.all == (len(args) > 0) {
		return e.usageErr("error.reset_args")
	}
	ws, _, exs, err := e.open(args)
	if err != nil {
		return err
	}
	for _, ex := range exs {
		backup, err := ws.Reset(ex, e.p.Lang())
		if err != nil {
			return &usageError{e.p.T("reset.failed", "Exercise", ex.ID, "Err", err)}
		}
		if backup == "" {
			fmt.Fprintln(e.Out, e.p.T("reset.clean", "Exercise", ex.ID))
			continue
		}
		fmt.Fprintln(e.Out, e.p.T("reset.done", "Exercise", ex.ID, "Backup", e.shortPath(filepath.Join(backup, ex.ID))+string(filepath.Separator)))
		fmt.Fprintln(e.Out, e.p.T("reset.restore_hint", "Exercise", ex.ID))
	}
	return nil
}

func restoreVerb() *verb { return command("restore", nil, restore) }

// restore lists the backups of an exercise, or brings one back: args are
// the exercise and, to bring one back, the backup's number in the list
// (1 is the newest) or its name.
func restore(e *env, _ *noOptions, args []string) error {
	if len(args) < 1 || len(args) > 2 {
		return e.usageErr("error.restore_args")
	}
	ws, _, exs, err := e.open(args[:1])
	if err != nil {
		return err
	}
	ex := exs[0]
	saved, err := ws.Backups(ex.ID)
	if err != nil {
		return err
	}
	if len(saved) == 0 {
		return &failedError{e.p.T("restore.none", "Exercise", ex.ID)}
	}
	if len(args) == 1 {
		fmt.Fprintln(e.Out, e.p.T("restore.list", "Exercise", ex.ID))
		tw := tabwriter.NewWriter(e.Out, 0, 0, 2, ' ', 0)
		for i, s := range saved {
			fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\n", i+1, s.Time.Local().Format(time.DateTime), s.Name, strings.Join(s.Files, ", "))
		}
		tw.Flush()
		fmt.Fprintln(e.Out, e.p.T("restore.how", "Exercise", ex.ID))
		return nil
	}
	var pick *workspace.Saved
	if n, err := strconv.Atoi(args[1]); err == nil && n >= 1 && n <= len(saved) {
		pick = &saved[n-1]
	}
	for i := range saved {
		if saved[i].Name == strings.TrimSuffix(args[1], "/") {
			pick = &saved[i]
		}
	}
	if pick == nil {
		return e.usageErr("error.unknown_backup", "Backup", args[1], "Exercise", ex.ID, "Count", len(saved))
	}
	kept, err := ws.Restore(ex, pick.Name)
	if err != nil {
		return &usageError{e.p.T("restore.failed", "Exercise", ex.ID, "Err", err)}
	}
	fmt.Fprintln(e.Out, e.p.T("restore.done", "Exercise", ex.ID, "Files", strings.Join(pick.Files, ", "),
		"Time", pick.Time.Local().Format(time.DateTime)))
	if kept != "" {
		fmt.Fprintln(e.Out, e.p.T("restore.kept", "Backup", e.shortPath(filepath.Join(kept, ex.ID))+string(filepath.Separator)))
	}
	return nil
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

package cli

import (
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kurs-course/kurs/internal/term"
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
			e.say("reset.clean", "Exercise", ex.ID)
			continue
		}
		e.say("reset.done", "Exercise", ex.ID, "Backup", shellWord(e.shortPath(filepath.Join(backup, ex.ID))+string(filepath.Separator)))
		e.say("reset.restore_hint", "Exercise", ex.ID, "Where", e.where())
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
		e.say("restore.list", "Exercise", ex.ID)
		e.backupList(saved)
		e.say("restore.how", "Exercise", ex.ID, "Where", e.where())
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
	e.say("restore.done", "Exercise", ex.ID, "Files", strings.Join(pick.Files, ", "),
		"Time", pick.Time.Local().Format(time.DateTime))
	if kept != "" {
		e.say("restore.kept", "Backup", shellWord(e.shortPath(filepath.Join(kept, ex.ID))+string(filepath.Separator)))
	}
	return nil
}

// backupList writes saved, the backups of an exercise, one a row: its
// number, when it was made, its name and its files, in aligned columns.
// Where a row is wider than the terminal, each backup's files go on the
// line under it instead, from the column of its time and wrapped there,
// so that no row folds into the next; a pipe always gets the rows whole.
func (e *env) backupList(saved []workspace.Saved) {
	t := e.stdout()
	rows := func(files bool) []string {
		var b strings.Builder
		tw := tabwriter.NewWriter(&b, 0, 0, len(term.ColumnGap), ' ', 0)
		for i, s := range saved {
			fmt.Fprintf(tw, "  %d\t%s\t%s", i+1, s.Time.Local().Format(time.DateTime), s.Name)
			if files {
				fmt.Fprintf(tw, "\t%s", strings.Join(s.Files, ", "))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	}
	if table := rows(true); term.TableFits(table, t.TextWidth()) {
		fmt.Fprintln(e.Out, strings.Join(table, "\n"))
		return
	}
	under := strings.Repeat(" ", len("  ")+len(strconv.Itoa(len(saved)))+len(term.ColumnGap))
	for i, head := range rows(false) {
		t.Println(head)
		t.Println(under + strings.Join(saved[i].Files, ", "))
	}
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

// where is what a command kurs suggests needs besides its verb and
// arguments to find the workspace this one used: --workspace as given,
// so that the suggestion works when pasted where this command ran.
func (e *env) where() string {
	if e.g.workspace == "" {
		return ""
	}
	return " --workspace " + shellWord(e.g.workspace)
}

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/termdoc"
)

func solutionVerb() *verb {
	return &verb{name: "solution", run: func(e *env, args []string) int {
		if len(args) != 1 {
			return e.usage("error.solution_args")
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
		ex := exs[0]
		prog, err := ws.Progress()
		if err != nil {
			return e.setupError(err)
		}
		// The solution is a reward and a comparison, not a shortcut: it
		// opens once the learner's own code has passed.
		if ep := prog.Exercises[ex.ID]; ep == nil || !ep.Passed {
			fmt.Fprintln(e.Err, e.p.T("solution.locked", "Exercise", ex.ID))
			return ExitFail
		}
		ref, err := ex.Solution()
		if err != nil {
			return e.setupError(err)
		}
		scr := e.screen()
		var mine, theirs []string
		dir := ws.ExerciseDir(ex.ID)
		names, err := checker.ReadSources(dir, ex.ID)
		if err != nil && !os.IsNotExist(err) {
			return e.setupError(err)
		}
		for _, name := range names {
			data, err := os.ReadFile(filepath.Join(ws.Dir, filepath.FromSlash(name)))
			if err != nil {
				return e.setupError(err)
			}
			mine = append(mine, panel(e.p.T("solution.mine", "File", name), termdoc.Highlight(string(data), "go", scr.color))...)
		}
		if len(names) == 0 {
			mine = append(mine, panel(e.p.T("solution.mine", "File", ex.ID+"/"), []string{e.p.T("solution.no_files")})...)
		}
		for _, f := range ref {
			theirs = append(theirs, panel(e.p.T("solution.reference", "File", f.Name), termdoc.Highlight(string(f.Data), "go", scr.color))...)
		}
		var b strings.Builder
		b.WriteString(e.p.T("solution.intro", "Exercise", ex.ID) + "\n\n")
		if left := widest(mine); left+3+widest(theirs) <= scr.width {
			sideBySide(&b, mine, theirs, left)
		} else {
			for _, l := range append(mine, theirs...) {
				b.WriteString(l + "\n")
			}
		}
		fmt.Fprint(e.Out, b.String())
		return ExitOK
	}}
}

// panel is a file's lines under a header.
func panel(header string, lines []string) []string {
	out := []string{header, strings.Repeat("─", termdoc.Width(header))}
	return append(append(out, lines...), "")
}

// widest returns the width of the widest line. Two sides stand next to
// each other only when both fit whole: a cut line of code misleads.
func widest(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, termdoc.Width(l))
	}
	return w
}

// sideBySide writes left and right as two columns of width col.
func sideBySide(b *strings.Builder, left, right []string, col int) {
	for i := range max(len(left), len(right)) {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		b.WriteString(strings.TrimRight(l+strings.Repeat(" ", col-termdoc.Width(l))+" │ "+r, " ") + "\n")
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/kurs-course/kurs/internal/atomicfile"
	"github.com/kurs-course/kurs/internal/validate"
)

// misconceptionReport prints kurs validate's warnings, names the
// lessons and exercises checked no further as they could not be read and
// the exercises whose misconceptions wait for their reference to pass
// and, with record, writes the misconceptions' signatures into the course's
// folder.
func (e *env) misconceptionReport(rep *validate.Report, record bool) error {
	dir := e.courseDir()
	for _, w := range rep.Warnings {
		if w.Kind == validate.SignaturesStale {
			if record && dir != "" {
				continue // recorded below
			}
			// The command to run names the course as the author did.
			course := e.p.T("validate.course_placeholder")
			if dir != "" {
				course = shellWord(dir)
			}
			w.Args = append(w.Args[:len(w.Args):len(w.Args)], "Course", course)
		}
		e.sayHanging(e.p.T("validate.warning", "Text", e.problemText(w)), 2)
	}
	for _, dir := range rep.Unread {
		e.say("validate.unread", "Dir", dir)
	}
	for _, id := range rep.Unchecked {
		e.say("validate.misconceptions_unchecked", "Exercise", id)
	}
	if !record {
		return nil
	}
	if dir == "" {
		// The embedded course cannot be written to.
		return e.usageErr("validate.signatures_course")
	}
	root, err := e.abs(dir)
	if err != nil {
		return err
	}
	written := 0
	for _, f := range rep.Signatures {
		name := filepath.Join(root, filepath.FromSlash(f.Path))
		if old, err := os.ReadFile(name); err == nil && string(old) == string(f.Data) {
			continue
		}
		if err := atomicfile.WriteFile(name, f.Data, 0o644); err != nil {
			return err
		}
		written++
		e.say("validate.signatures_written", "File", f.Path)
	}
	// An author who asked to record learns that nothing needed it, too.
	switch {
	case len(rep.Signatures) == 0:
		e.say("validate.signatures_none")
	case written == 0:
		e.say("validate.signatures_current", "Count", len(rep.Signatures))
	}
	return nil
}

// shellWord returns s as one word for a POSIX shell: as it is when it
// holds nothing a shell would read differently, else in double quotes
// (messages put commands in single quotes), or in single quotes when
// double quotes would expand it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-") == "" {
		return s
	}
	if !strings.ContainsAny(s, "$`\\\"!") {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

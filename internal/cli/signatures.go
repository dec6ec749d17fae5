package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/kurs-course/kurs/internal/validate"
	"github.com/kurs-course/kurs/internal/workspace"
)

// misconceptionReport prints kurs validate's warnings and, with record,
// writes the misconceptions' signatures into the course's folder.
func (e *env) misconceptionReport(rep *validate.Report, record bool) error {
	for _, w := range rep.Warnings {
		fmt.Fprintln(e.Out, e.p.T("validate.warning", "Text", e.problemText(w)))
	}
	if !record {
		return nil
	}
	dir := e.g.course
	if dir == "" {
		if ws, err := e.workspace(); err == nil && ws.Config.Course != "" && ws.Config.Course != "embedded" {
			dir = ws.Config.Course
		}
	}
	if dir == "" {
		// The embedded course cannot be written to.
		return e.usageErr("validate.signatures_course")
	}
	root, err := e.abs(dir)
	if err != nil {
		return err
	}
	for _, f := range rep.Signatures {
		name := filepath.Join(root, filepath.FromSlash(f.Path))
		if old, err := os.ReadFile(name); err == nil && string(old) == string(f.Data) {
			continue
		}
		if err := workspace.WriteFileAtomic(name, f.Data); err != nil {
			return err
		}
		fmt.Fprintln(e.Out, e.p.T("validate.signatures_written", "File", f.Path))
	}
	return nil
}

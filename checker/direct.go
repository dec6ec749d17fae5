package checker

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
)

// A learner's program is built directly from a kit when one is at hand
// (see the build package); whenever a direct build cannot tell the
// learner's mistake from its own (a missing archive, a failed link), the
// go command builds instead, so the verdict is the same either way.

// probeModule lays out the module from which a kit is made: the references
// of exs as one learner's program, and a package that imports everything a
// learner may import, so that its archive is in the kit too.
func probeModule(exs []*course.Exercise) (map[string][]byte, error) {
	jobs := make([]*job, len(exs))
	allowed := map[string]bool{}
	for i, ex := range exs {
		sol, err := ex.Solution()
		if err != nil {
			return nil, err
		}
		jobs[i] = &job{Job: Job{Exercise: ex}}
		for _, f := range sol {
			jobs[i].files = append(jobs[i].files, source{Name: f.Name, Path: path.Join(ex.ID, f.Name), Data: f.Data})
		}
		for _, imp := range ex.Imports {
			allowed[imp] = true
		}
	}
	mod, err := combinedModule(jobs)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("// Package allow imports what learners may import.\npackage allow\n\nimport (\n")
	for _, imp := range slices.Sorted(func(yield func(string) bool) {
		for imp := range allowed {
			if !yield(imp) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "\t_ %q\n", imp)
	}
	b.WriteString(")\n")
	mod["internal/allow/allow.go"] = []byte(b.String())
	return mod, nil
}

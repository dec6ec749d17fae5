package checker

import (
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var allowed = []string{"errors", "fmt", "math", "strconv", "strings", "sync", "sync/atomic"}

// FuzzInspect feeds arbitrary learner files to the static checks: they must
// never panic, and what they let through must parse, be in the right
// package, import only allowed packages and carry no refused directive.
func FuzzInspect(f *testing.F) {
	for _, s := range []string{
		"package circuitbreaker\n",
		"package circuitbreaker\nimport \"os\"\n",
		"package circuitbreaker\nimport (\n\tx \"os/exec\"\n\t_ \"unsafe\"\n)\n",
		"package circuitbreaker\n//go:linkname f runtime.f\nfunc f()\n",
		"package circuitbreaker\nimport \"C\"\n",
		"package other\n",
		"package circuitbreaker\nfunc (",
		"package circuitbreaker\n/*\n//go:embed x\n*/\n",
		"\xff\xfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p := inspect("circuitbreaker", []source{{Name: "a.go", Path: "circuitbreaker/a.go", Data: []byte(src)}}, allowed)
		if p != nil {
			if p.Kind == "" {
				t.Fatalf("problem without a kind: %+v", p)
			}
			return
		}
		af, err := parser.ParseFile(token.NewFileSet(), "a.go", src, parser.ParseComments)
		if err != nil {
			t.Fatalf("let through a file that does not parse: %v", err)
		}
		if af.Name.Name != "circuitbreaker" {
			t.Fatalf("let through package %s", af.Name.Name)
		}
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(allowed, path) {
				t.Fatalf("let through import %q", path)
			}
		}
		for _, g := range af.Comments {
			for _, c := range g.List {
				if strings.HasPrefix(c.Text, "//go:linkname") || strings.HasPrefix(c.Text, "//go:embed") {
					t.Fatalf("let through %q", c.Text)
				}
			}
		}
	})
}

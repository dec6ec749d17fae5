package checker

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
)

// Bounds of what declared collects: a real solution declares a dozen
// names; hostile code must not make the message or the result large.
const (
	maxDeclared    = 256
	maxDeclaredLen = 64
)

// declared returns the names the learner's package in dir declares at
// package level, and its methods as "Type.Method", sorted, so that the
// API check's message can point at a near miss of a missing name ("did
// you mean Nwe?"). The API check's own file is left out; a file that does
// not parse gives what the parser still found. inspect has bounded the
// files' number and size before the build.
func declared(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	add := func(name string) {
		if name != "_" && len(name) <= maxDeclaredLen && len(seen) < maxDeclared {
			seen[name] = true
		}
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == apiFile {
			continue
		}
		f, _ := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if f == nil {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				// A method whose receiver names no type is left out.
				if n := course.FuncName(d); d.Recv == nil || strings.Contains(n, ".") {
					add(n)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add(s.Name.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add(n.Name)
						}
					}
				}
			}
		}
	}
	if len(seen) == 0 {
		return nil
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

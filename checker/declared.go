package checker

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path"
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
// API check's message can point at a near miss of a missing name ("you
// wrote Nwe"), and where each is declared ("circuitbreaker/cb.go:12", rel
// being the package's folder relative to the workspace, slash-separated).
// The API check's own file is left out; a file that does not parse gives
// what the parser still found. inspect has bounded the files' number and
// size before the build.
func declared(dir, rel string) ([]string, map[string]string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	seen := map[string]string{}
	fset := token.NewFileSet()
	add := func(name string, pos token.Pos) {
		if _, dup := seen[name]; !dup && name != "_" && len(name) <= maxDeclaredLen && len(seen) < maxDeclared {
			p := fset.Position(pos)
			seen[name] = fmt.Sprintf("%s:%d", path.Join(rel, filepath.Base(p.Filename)), p.Line)
		}
	}
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
					add(n, d.Name.Pos())
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add(s.Name.Name, s.Name.Pos())
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add(n.Name, n.Pos())
						}
					}
				}
			}
		}
	}
	if len(seen) == 0 {
		return nil, nil
	}
	return slices.Sorted(maps.Keys(seen)), seen
}

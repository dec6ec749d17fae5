package checker

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
				if d.Recv == nil {
					add(d.Name.Name)
				} else if len(d.Recv.List) == 1 {
					if t := receiverType(d.Recv.List[0].Type); t != "" {
						add(t + "." + d.Name.Name)
					}
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

// receiverType returns the name of a method's receiver type: T for T,
// *T, T[P] and *T[P, Q].
func receiverType(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch t := e.(type) {
	case *ast.IndexExpr:
		e = t.X
	case *ast.IndexListExpr:
		e = t.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

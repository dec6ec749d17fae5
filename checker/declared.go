package checker

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
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
// The API check's own file is left out, and so is a file that the build
// leaves out (a //go:build line, or a name such as x_windows.go, excludes
// it here): excluded lists those, as rel/NAME, for the message to say why
// their names are missing. A file that does not parse gives what the
// parser still found. inspect has bounded the files' number and size
// before the build.
func declared(dir, rel string) (names []string, at map[string]string, excluded []ExcludedFile, noneBuilt bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, nil, false
	}
	built := 0
	// As the build decides (see build.goFiles), for a learner's program.
	ctxt := build.Default
	ctxt.CgoEnabled = false
	ctxt.BuildTags = []string{harness.LearnerTag}
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
		if ok, err := ctxt.MatchFile(dir, name); err == nil && !ok {
			if len(excluded) < maxFiles {
				excluded = append(excluded, ExcludedFile{File: path.Join(rel, name), Constraint: constraintLine(filepath.Join(dir, name))})
			}
			continue
		}
		built++
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
	noneBuilt = built == 0 && len(excluded) > 0
	if len(seen) == 0 {
		return nil, nil, excluded, noneBuilt
	}
	return slices.Sorted(maps.Keys(seen)), seen, excluded, noneBuilt
}

// maxConstraint bounds the build constraint kept of a learner's file.
const maxConstraint = 200

// constraintLine returns the //go:build (or // +build) line of the Go
// file name, from the comments before its package clause, at most
// maxConstraint bytes; "" when it has none.
func constraintLine(name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.PackageClauseOnly|parser.ParseComments)
	if f == nil || err != nil {
		return ""
	}
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if constraint.IsGoBuild(c.Text) || constraint.IsPlusBuild(c.Text) {
				if len(c.Text) > maxConstraint {
					return strings.ToValidUTF8(c.Text[:maxConstraint], "")
				}
				return c.Text
			}
		}
	}
	return ""
}

// Package tracegen writes the test program of a trace exercise from data,
// so that an author adds hidden tests without writing Go: the calls a trace
// may make are read from the reference solution's API, and random traces
// are described in testdata/suite.json.
//
// It generates two files of an exercise's testdata/: driver.go, the test
// program's main package, which maps each call of a trace to the learner's
// and the reference's value and draws random traces from the description;
// and api.go, which pins the API in the learner's package. Both carry a
// "Code generated" header; kurs new driver writes them and kurs validate
// reports when they are out of date.
//
// It does not run anything and does not replace hand-written drivers, which
// remain possible for what the description cannot express.
package tracegen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"slices"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
)

// Kinds of values a trace can pass and observe. Arguments travel as
// numbers (harness.Step.Args is []float64), so only numeric parameters can
// be passed; results may also be bool or string.
const (
	Int     = "int"
	Int64   = "int64"
	Float64 = "float64"
	Bool    = "bool"
	String  = "string"
)

// Param is a parameter of the constructor or a method.
type Param struct {
	Name string // may be empty
	Type string // as written, e.g. "int"
}

// Method is an exported method of the exercise's type.
type Method struct {
	Name   string
	Params []Param
	Result string // type of the single result, "" for none
	File   string // solution file name
	Line   int
}

// API is what the reference solution of a trace exercise offers: a
// constructor New returning a pointer to (or a value of) a named type, and
// that type's exported methods.
type API struct {
	Package string // package name, the exercise's id
	Type    string // the type New returns, without the star
	Pointer bool   // New returns *Type
	New     []Param
	NewFile string
	NewLine int
	Methods []Method // in source order
}

// Method returns the method called name.
func (a *API) Method(name string) (Method, bool) {
	for _, m := range a.Methods {
		if m.Name == name {
			return m, true
		}
	}
	return Method{}, false
}

// ParseAPI reads the API from the reference solution's files. It returns
// nil and no error when there is no function New: such an exercise (a
// quiz, say) is not driven by traces.
func ParseAPI(files []course.File) (*API, error) {
	fset := token.NewFileSet()
	var parsed []*ast.File
	var names []string
	for _, f := range files {
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		parsed = append(parsed, af)
		names = append(names, f.Name)
	}
	a := &API{}
	for i, af := range parsed {
		a.Package = af.Name.Name
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Name.Name != "New" {
				continue
			}
			res := fd.Type.Results
			if res == nil || len(res.List) != 1 || len(res.List[0].Names) > 1 {
				return nil, fmt.Errorf("%s:%d: New must return one value, the exercise's type", names[i], fset.Position(fd.Pos()).Line)
			}
			t := res.List[0].Type
			if st, ok := t.(*ast.StarExpr); ok {
				a.Pointer, t = true, st.X
			}
			id, ok := t.(*ast.Ident)
			if !ok {
				return nil, fmt.Errorf("%s:%d: New must return a type declared in the package", names[i], fset.Position(fd.Pos()).Line)
			}
			a.Type, a.New = id.Name, params(fset, fd.Type.Params)
			a.NewFile, a.NewLine = names[i], fset.Position(fd.Pos()).Line
		}
	}
	if a.Type == "" {
		return nil, nil
	}
	for i, af := range parsed {
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || !fd.Name.IsExported() {
				continue
			}
			rt := fd.Recv.List[0].Type
			if st, ok := rt.(*ast.StarExpr); ok {
				rt = st.X
			}
			if id, ok := rt.(*ast.Ident); !ok || id.Name != a.Type {
				continue
			}
			m := Method{Name: fd.Name.Name, Params: params(fset, fd.Type.Params), File: names[i], Line: fset.Position(fd.Pos()).Line}
			if r := fd.Type.Results; r != nil {
				switch {
				case len(r.List) == 1 && len(r.List[0].Names) <= 1:
					m.Result = expr(fset, r.List[0].Type)
				default:
					m.Result = "(" + expr(fset, r) + ")" // several results: not usable in a trace
				}
			}
			a.Methods = append(a.Methods, m)
		}
	}
	return a, nil
}

func params(fset *token.FileSet, fl *ast.FieldList) []Param {
	var ps []Param
	for _, f := range fl.List {
		t := expr(fset, f.Type)
		if len(f.Names) == 0 {
			ps = append(ps, Param{Type: t})
		}
		for _, n := range f.Names {
			ps = append(ps, Param{Name: n.Name, Type: t})
		}
	}
	return ps
}

func expr(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	_ = printer.Fprint(&b, fset, n)
	return b.String()
}

// Passable reports whether a trace can pass an argument of type t.
func Passable(t string) bool { return slices.Contains([]string{Int, Int64, Float64}, t) }

// Observable reports whether a trace can compare a result of type t.
func Observable(t string) bool {
	return t == "" || slices.Contains([]string{Int, Int64, Float64, Bool, String}, t)
}

// Usable returns the parameter or result, as Go source, that keeps a trace
// from calling the method, or "" when a trace can call it.
func (m Method) Usable() string {
	for _, p := range m.Params {
		if !Passable(p.Type) {
			return strings.TrimSpace(p.Name + " " + p.Type)
		}
	}
	if !Observable(m.Result) {
		return m.Result
	}
	return ""
}

// signature returns the method's parameter list as Go source.
func signature(ps []Param) string {
	var s []string
	for _, p := range ps {
		s = append(s, strings.TrimSpace(p.Name+" "+p.Type))
	}
	return strings.Join(s, ", ")
}

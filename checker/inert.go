package checker

import (
	"bytes"
	"go/ast"
	"go/build"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"path"
	"runtime"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
)

// maxInertElements bounds the elements of composite literals in a
// package's variables that inert accepts: a map literal is filled when the
// program starts, in every program that holds it.
const maxInertElements = 4096

// inert reports whether initialising the package of files runs nothing
// but allocations: no init function, and every package-level variable's
// value made of constants, other variables and functions, function
// literals, composite literals of such values (a map's keys of a basic
// type, so that hashing them cannot panic), their addresses, conversions
// of constants, arithmetic that cannot panic, and errors.New of a
// constant. Such a package can share a program with others (see
// build.BatchProgram): whether or not it is initialised there changes
// nothing that another package's code can see, and it cannot fail.
//
// Imports are not read: what the package uses of them is unknown, and
// only errors.New is recognised, by its name. Code that does not compile
// may pass: its build fails whether or not it shares a program.
func inert(files []source, api []course.File) bool {
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		if !everywhere(f) {
			// The type checker would see a file the compiler leaves out,
			// and take one declaration for another.
			return false
		}
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		parsed = append(parsed, af)
	}
	for _, f := range api {
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		parsed = append(parsed, af)
	}
	if len(parsed) == 0 {
		return false
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{Importer: emptyImports{}, Error: func(error) {}}
	// Errors are expected: the imports are empty. What matters is what the
	// checker knows of each value.
	_, _ = conf.Check(parsed[0].Name.Name, fset, parsed, info)
	in := inertness{info: info, sizes: types.SizesFor("gc", runtime.GOARCH)}
	for _, af := range parsed {
		in.errors = ""
		for _, imp := range af.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "errors" {
				in.errors = "errors"
				if imp.Name != nil {
					in.errors = imp.Name.Name
				}
			}
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "init" {
					return false
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						if !in.expr(v) {
							return false
						}
					}
				}
			}
		}
	}
	return true
}

// inertness walks a package's variables' values for inert.
type inertness struct {
	info     *types.Info
	errors   string // the name of the package errors in the file, or ""
	elements int    // composite literals' elements so far
	sizes    types.Sizes
	filled   int64 // the bytes of map literals' entries so far
	inMap    int   // how many map literals the expression is in
}

// maxInertMaps bounds the bytes of the entries of a package's map
// literals, which are made when the program starts.
const maxInertMaps = 64 << 10

// everywhere reports whether the compiler compiles f whatever the
// platform and the tags: it has no build constraint and no platform in its
// name.
func everywhere(f source) bool {
	for _, c := range []build.Context{
		{GOOS: "linux", GOARCH: "amd64", BuildTags: []string{"kurs_learner", "race"}, CgoEnabled: true},
		{GOOS: "windows", GOARCH: "arm64"},
	} {
		c.ReleaseTags = build.Default.ReleaseTags
		c.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(f.Data)), nil }
		c.JoinPath = path.Join
		if ok, err := c.MatchFile(".", f.Name); err != nil || !ok {
			return false
		}
	}
	return !bytes.Contains(f.Data, []byte("//go:build")) && !bytes.Contains(f.Data, []byte("+build"))
}

// expr reports whether evaluating e runs nothing but allocations and
// cannot panic.
func (in *inertness) expr(e ast.Expr) bool {
	if tv, ok := in.info.Types[e]; ok && tv.Value != nil {
		return true // a constant
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return in.expr(e.X)
	case *ast.Ident:
		// A variable is copied, a function is a value; nothing runs.
		return true
	case *ast.FuncLit:
		return true
	case *ast.SelectorExpr:
		// A method expression, (*T).M, is a function; a name of another
		// package is read. A field through a pointer or a method value may
		// dereference nil.
		if sel, ok := in.info.Selections[e]; ok {
			switch sel.Kind() {
			case types.MethodExpr:
				return true
			case types.FieldVal:
				// A field of a value, not through a pointer: T{}.F.
				return !sel.Indirect() && in.expr(e.X)
			}
			return false
		}
		pkg, ok := e.X.(*ast.Ident)
		if !ok {
			return false
		}
		_, isPkg := in.info.Uses[pkg].(*types.PkgName)
		return isPkg
	case *ast.UnaryExpr:
		switch e.Op {
		case token.AND:
			if in.inMap > 0 {
				return false // made on the heap when the program starts
			}
			// A composite literal's address, or a variable's.
			switch x := ast.Unparen(e.X).(type) {
			case *ast.CompositeLit:
				return in.expr(x)
			case *ast.Ident:
				return true
			case *ast.SelectorExpr:
				pkg, ok := x.X.(*ast.Ident)
				if !ok {
					return false
				}
				_, isPkg := in.info.Uses[pkg].(*types.PkgName)
				return isPkg
			}
			return false
		case token.SUB, token.ADD, token.XOR, token.NOT:
			return in.expr(e.X)
		}
		return false // a receive waits
	case *ast.BinaryExpr:
		// Arithmetic on numbers and logic on booleans. A division or shift
		// by a variable may panic, a comparison of interfaces holding
		// values that cannot be compared too, and strings joined grow with
		// each variable they join.
		b, ok := in.info.Types[e].Type.(*types.Basic)
		if !ok {
			if t := in.info.Types[e].Type; t != nil {
				b, ok = t.Underlying().(*types.Basic)
			}
		}
		if !ok {
			return false
		}
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT:
			if b.Info()&types.IsNumeric == 0 {
				return false
			}
		case token.LAND, token.LOR:
		default:
			return false
		}
		return in.expr(e.X) && in.expr(e.Y)
	case *ast.CompositeLit:
		t := in.info.Types[e].Type
		if t == nil {
			return false
		}
		switch t.Underlying().(type) {
		case *types.Slice, *types.Map:
			if in.inMap > 0 {
				return false // made on the heap when the program starts
			}
		}
		if m, ok := t.Underlying().(*types.Map); ok {
			in.inMap++
			defer func() { in.inMap-- }()
			// Made when the program starts, its entries' memory with it.
			if b, ok := m.Key().Underlying().(*types.Basic); !ok || b.Kind() == types.Invalid || !resolved(m.Elem()) {
				return false
			}
			in.filled += int64(len(e.Elts)) * (in.sizes.Sizeof(m.Key()) + in.sizes.Sizeof(m.Elem()))
			if in.filled > maxInertMaps {
				return false
			}
		}
		for _, el := range e.Elts {
			if in.elements++; in.elements > maxInertElements {
				return false
			}
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if _, field := kv.Key.(*ast.Ident); !field && !in.expr(kv.Key) {
					return false
				}
				el = kv.Value
			}
			if !in.expr(el) {
				return false
			}
		}
		return true
	case *ast.CallExpr:
		if len(e.Args) != 1 || e.Ellipsis.IsValid() {
			return false
		}
		arg, known := in.info.Types[e.Args[0]]
		if !known || arg.Value == nil {
			return false
		}
		if tv, ok := in.info.Types[e.Fun]; ok && tv.IsType() {
			// A constant converted to a number, a string or an interface;
			// a slice of a constant string is made when the program starts.
			switch tv.Type.Underlying().(type) {
			case *types.Basic, *types.Interface:
				return resolved(tv.Type)
			}
			return false
		}
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok || in.errors == "" || sel.Sel.Name != "New" || arg.Value.Kind() != constant.String {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || pkg.Name != in.errors {
			return false
		}
		_, isPkg := in.info.Uses[pkg].(*types.PkgName)
		return isPkg
	}
	return false
}

// emptyImports gives every import as a package with nothing in it: inert
// needs to know the learner's own names only.
type emptyImports struct{}

func (emptyImports) Import(p string) (*types.Package, error) {
	name := p
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			name = p[i+1:]
			break
		}
	}
	pkg := types.NewPackage(p, name)
	pkg.MarkComplete()
	return pkg, nil
}

// resolved reports whether t is a type the type checker knows: nothing in it
// comes from an import, which inert does not read.
func resolved(t types.Type) bool {
	return !strings.Contains(types.TypeString(t, nil), "invalid type")
}

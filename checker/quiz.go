package checker

import (
	"errors"
	"go/ast"
	gobuild "go/build"
	"go/build/constraint"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"path"
	"runtime"
	"strings"

	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
)

// quizVar is the variable that holds a quiz's answers: the test program
// every quiz shares (internal/course/quiz/driver.go.tmpl) reports it.
const quizVar = "Answer"

// guardPath is the package the API check imports for its init alone.
const guardPath = module + "/internal/harness/guard"

// Bounds of what a package of constants may hold and still be answered
// without its program: larger ones are left to the compiler, which may
// refuse them.
const (
	maxConstArray = 1024    // elements of one array
	maxConstSize  = 1 << 20 // bytes of all package variables together
)

// constantAnswers returns the answers of a quiz whose learner's package
// runs nothing: it type-checks with the API check, imports nothing, and
// declares only constants, types of a basic kind and variables whose
// values are constants or arrays of them, with no function, no method and
// no init. Such a package's Answer, when the test program reads it, holds
// what the source says, so the checker can give the judge those answers
// itself, without compiling, linking or running anything of the learner's
// (see answerRun). ok is false for anything else, which is built and run
// as usual: the compiler's words for a mistake, and the learner's program
// for code that runs.
func constantAnswers(ex *course.Exercise, files []source) (answers []string, ok bool) {
	if !ex.Traits().Data || ex.Concurrent || len(files) == 0 {
		return nil, false
	}
	_, api, err := ex.Tests()
	if err != nil {
		return nil, false
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		if f.TooLarge || !matches(f) {
			return nil, false
		}
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil || !onlyData(af) {
			return nil, false
		}
		parsed = append(parsed, af)
	}
	learner := len(parsed)
	for _, f := range api {
		af, err := parser.ParseFile(fset, apiFile, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return nil, false
		}
		parsed = append(parsed, af)
	}
	sizes := types.SizesFor("gc", runtime.GOARCH)
	conf := types.Config{
		GoVersion: "go" + build.GoLanguage,
		Importer:  guardOnly{},
		Sizes:     sizes,
		Error:     func(error) {}, // the first error ends it; the compiler words it
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}}
	pkg, err := conf.Check(ex.ID, fset, parsed, info)
	if err != nil {
		return nil, false
	}
	var size int64
	var values map[string]ast.Expr // Answer's value by its declaration, nil if none
	for _, af := range parsed[:learner] {
		for _, d := range af.Decls {
			for _, spec := range d.(*ast.GenDecl).Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.TypeParams != nil || !basic(info.Defs[s.Name].Type().Underlying()) {
						return nil, false
					}
				case *ast.ValueSpec:
					if len(s.Values) != 0 && len(s.Values) != len(s.Names) {
						return nil, false // a call with several results
					}
					for i, name := range s.Names {
						obj := info.Defs[name]
						if _, isVar := obj.(*types.Var); !isVar {
							continue // a constant: the type checker knows its value
						}
						if !fixed(obj.Type()) {
							return nil, false
						}
						if size += sizes.Sizeof(obj.Type()); size > maxConstSize {
							return nil, false
						}
						var value ast.Expr
						if len(s.Values) > 0 {
							value = s.Values[i]
							if !static(info, value) {
								return nil, false
							}
						}
						if name.Name == quizVar {
							values = map[string]ast.Expr{quizVar: value}
						}
					}
				}
			}
		}
	}
	obj, _ := pkg.Scope().Lookup(quizVar).(*types.Var)
	if obj == nil || values == nil {
		return nil, false
	}
	arr, _ := obj.Type().Underlying().(*types.Array)
	if arr == nil || !isString(arr.Elem()) {
		return nil, false
	}
	answers = make([]string, arr.Len())
	lit, _ := ast.Unparen(values[quizVar]).(*ast.CompositeLit)
	if values[quizVar] != nil && lit == nil {
		return nil, false
	}
	if lit != nil {
		i := int64(0)
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				i, _ = constant.Int64Val(constant.ToInt(info.Types[kv.Key].Value))
				e = kv.Value
			}
			v := info.Types[e].Value
			if i < 0 || i >= int64(len(answers)) || v == nil || v.Kind() != constant.String {
				return nil, false
			}
			answers[i] = constant.StringVal(v)
			i++
		}
	}
	return answers, true
}

// matches reports whether the go command would build f into the
// learner's program with certainty: its name names no other system or
// architecture, and it has no build constraint, whose tags (the release's,
// kurs's own) are the compiler's to decide.
func matches(f source) bool {
	ctx := gobuild.Default
	ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = runtime.GOOS, runtime.GOARCH, false
	ctx.BuildTags = []string{harness.LearnerTag}
	ctx.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("package p\n")), nil }
	ctx.JoinPath = path.Join
	if ok, err := ctx.MatchFile(".", f.Name); !ok || err != nil {
		return false
	}
	for _, line := range strings.Split(string(f.Data), "\n") {
		line = strings.TrimSpace(line)
		if constraint.IsGoBuild(line) || constraint.IsPlusBuild(line) {
			return false
		}
	}
	return true
}

// onlyData reports whether f declares only constants, variables and
// types: no function, no method, no init, no import.
func onlyData(f *ast.File) bool {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok == token.IMPORT {
			return false
		}
	}
	return true
}

// static reports whether e, a variable's value, is known without running
// anything: a constant, or an array literal of such values.
func static(info *types.Info, e ast.Expr) bool {
	if info.Types[e].Value != nil {
		return true
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return false
	}
	if _, isArray := info.Types[lit].Type.Underlying().(*types.Array); !isArray {
		return false
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if info.Types[kv.Key].Value == nil {
				return false
			}
			el = kv.Value
		}
		if !static(info, el) {
			return false
		}
	}
	return true
}

// basic reports whether t is a basic type a constant can have.
func basic(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsConstType != 0
}

// fixed reports whether a variable of type t holds only values of basic
// types, in arrays of a bounded length.
func fixed(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return basic(u)
	case *types.Array:
		return u.Len() <= maxConstArray && fixed(u.Elem())
	}
	return false
}

// isString reports whether t is a string type.
func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// guardOnly imports the API check's guard, which the type checker needs
// only by name, and nothing else.
type guardOnly struct{}

func (guardOnly) Import(p string) (*types.Package, error) {
	if p != guardPath {
		return nil, errors.New("not a package of constants")
	}
	pkg := types.NewPackage(p, "guard")
	pkg.MarkComplete()
	return pkg, nil
}

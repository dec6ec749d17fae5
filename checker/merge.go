package checker

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kurs-course/kurs/internal/course"
)

// mergedPrefix begins every name that a test program merged into the
// learner's package declares or imports (see mergedDriver): no learner's
// code of a batch may use it (see mergeable).
const mergedPrefix = "kurs_"

// mergedFile is the name of a test program's file merged into the
// learner's package.
const mergedFile = "zz_kurs_driver.go"

// mergedDriver returns the test program driver of the exercise id as a
// file of the learner's package, so that a batch compiles one package per
// member instead of two (see build.BatchProgram): its package is the
// exercise's, its import
// of the learner's package is gone and what it named there is named
// directly, every name it declares and every package it imports is
// renamed with mergedPrefix, and its main is KursMain. Its lines are the
// test program's, each where it was. An error means the test program
// cannot be merged; its exercise is then built alone.
func mergedDriver(id string, driver []course.File) ([]byte, error) {
	if len(driver) != 1 {
		return nil, errors.New("a test program of several files")
	}
	key := id + "\x00" + string(driver[0].Data)
	if out, ok := merged.Load(key); ok {
		return out.([]byte), nil
	}
	out, err := mergeDriver(id, driver[0].Data)
	if err == nil {
		merged.Store(key, out)
	}
	return out, err
}

// merged holds what mergeDriver made of each test program.
var merged sync.Map

// mergeDriver does mergedDriver's work on the test program src of the
// exercise id.
func mergeDriver(id string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "driver.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	file := fset.File(f.Pos())
	off := func(p token.Pos) int { return file.Offset(p) }
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	replace := func(from, to token.Pos, text string) { edits = append(edits, edit{off(from), off(to), text}) }

	replace(f.Name.Pos(), f.Name.End(), id)
	learner := module + "/" + id
	exName := ""                 // the learner's package's name in the test program
	imports := map[string]bool{} // the other imports' names
	for _, spec := range f.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return nil, err
		}
		name := path.Base(p)
		if strings.HasPrefix(name, "v") && len(name) > 1 && strings.Trim(name[1:], "0123456789") == "" {
			name = path.Base(path.Dir(p)) // math/rand/v2 is rand
		}
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name == "_" || name == "." {
			return nil, fmt.Errorf("import %s as %s", p, name)
		}
		if p == learner {
			exName = name
			replace(spec.Pos(), spec.End(), "")
			continue
		}
		imports[name] = true
		if spec.Name != nil {
			replace(spec.Name.Pos(), spec.Name.End(), mergedPrefix+name)
		} else {
			replace(spec.Path.Pos(), spec.Path.Pos(), mergedPrefix+name+" ")
		}
	}
	if exName == "" {
		return nil, errors.New("the test program does not import the learner's package")
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && !g.Lparen.IsValid() && len(g.Specs) == 1 && !strings.Contains(string(src[off(g.Pos()):off(g.End())]), "(") {
			// A lone import of the learner's package would leave the
			// keyword alone.
			if s := g.Specs[0].(*ast.ImportSpec); s.Path.Value == strconv.Quote(learner) {
				return nil, errors.New("a lone import of the learner's package")
			}
		}
	}

	// What each name of the test program means, as far as it can be told
	// without its imports: its own declarations and the packages.
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: emptyImports{}, Error: func(error) {}}
	pkg, _ := conf.Check("main", fset, []*ast.File{f}, info)
	if pkg.Scope().Lookup("init") != nil {
		return nil, errors.New("an init in the test program")
	}
	used := map[string]bool{} // the learner's names the test program uses
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		// The type checker leaves a package's name in a type it cannot
		// resolve (*rand.Rand) without a use.
		obj, known := info.Uses[x]
		_, isPkg := obj.(*types.PkgName)
		switch {
		case !isPkg && known:
		case x.Name == exName:
			replace(x.Pos(), sel.Sel.Pos(), "")
			used[sel.Sel.Name] = true
		case !known && imports[x.Name]:
			replace(x.Pos(), x.End(), mergedPrefix+x.Name)
		}
		return true
	})
	var clash error
	rename := func(id *ast.Ident, obj types.Object) {
		switch obj := obj.(type) {
		case nil:
		case *types.PkgName:
			if obj.Name() != exName && imports[obj.Name()] {
				replace(id.Pos(), id.End(), mergedPrefix+id.Name)
			}
		default:
			if obj.Parent() != pkg.Scope() || id.Name == "_" {
				return
			}
			name := mergedPrefix + id.Name
			if id.Name == "main" {
				name = "KursMain"
			}
			replace(id.Pos(), id.End(), name)
		}
	}
	for id, obj := range info.Defs {
		if id == f.Name || obj == nil {
			continue
		}
		if used[id.Name] && clash == nil {
			// The learner's name, named directly, would mean this one.
			clash = fmt.Errorf("the test program declares %s, a name of the learner's package", id.Name)
		}
		if _, isPkg := obj.(*types.PkgName); !isPkg {
			rename(id, obj)
		}
	}
	for id, obj := range info.Uses {
		rename(id, obj)
	}
	if clash != nil {
		return nil, clash
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.from - a.from })
	out := slices.Clone(src)
	for _, e := range edits {
		out = slices.Concat(out[:e.from], []byte(e.text), out[e.to:])
	}
	return out, nil
}

// mergeable reports whether the learner's files leave a test program
// merged into their package (see mergedDriver) meaning what it means in a
// program of its own: they use no name beginning with mergedPrefix, and
// declare none of Go's predeclared names (a type error, a function len)
// at the top, which would change what the test program's code names; no
// file has the merged file's name. And whether they can share a program
// at all: a compiler directive (//go:nosplit) may fail the program's link
// for every member.
func mergeable(files []source) bool {
	for _, f := range files {
		if strings.HasPrefix(f.Name, "zz_kurs") || bytes.Contains(f.Data, []byte(mergedPrefix)) ||
			bytes.Contains(f.Data, []byte("KursMain")) || bytes.Contains(f.Data, []byte("//go:")) {
			return false
		}
		af, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		for _, d := range af.Decls {
			var names []*ast.Ident
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names = append(names, d.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names = append(names, s.Name)
					case *ast.ValueSpec:
						names = append(names, s.Names...)
					}
				}
			}
			for _, n := range names {
				if types.Universe.Lookup(n.Name) != nil {
					return false
				}
			}
		}
	}
	return true
}

// Package mutate makes mutants of a Go package: copies with one small,
// plausible mistake each, as a learner might make it. If an exercise's
// hidden tests pass a mutant, they would let that wrong solution through.
//
// Mutants are made from the syntax tree and written back as text edits, so
// that everything but the mistake stays byte for byte as the author wrote
// it and the diff shows only the change. The operators are those of
// classic mutation testing: a comparison negated or loosened, + and -, *
// and /, && and || exchanged, a constant off by one, true and false
// swapped, ++ and -- exchanged, a statement dropped, the branches of an if
// or the bodies of two cases swapped, one string constant of the file in
// place of another (a state mixed up with another). Mutants that do not type-check are
// dropped before anything is built.
//
// The package does not run mutants; see validate.
package mutate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/kurs-course/kurs/internal/course"
)

// findGOROOT tells go/build where the standard library's sources are when
// kurs was built with -trimpath (as make builds it): such a binary knows no
// GOROOT, and the source importer then finds no package of the standard
// library, so every reference that imports one would get no mutants.
var findGOROOT = sync.OnceFunc(func() {
	if build.Default.GOROOT != "" {
		return
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return // Generate then reports the failed import.
	}
	build.Default.GOROOT = strings.TrimSpace(string(out))
})

// Mutant is the package with one mistake.
type Mutant struct {
	// ID names the mutant stably: the function and the change, e.g.
	// "CircuitBreaker.Allow: >= → > in `now-b.openedAt >= b.wait`". A
	// second identical change in the same function gets " (2)".
	ID string
	// File and Line are where the change is.
	File string
	Line int
	// Files are all files of the package, one of them changed.
	Files []course.File
	// Diff is the change as a unified diff.
	Diff string
}

// Generate returns the mutants of the package made of files that
// type-check, and how many did not. Files must type-check themselves.
func Generate(files []course.File) (mutants []Mutant, invalid int, err error) {
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return nil, 0, err
		}
		parsed = append(parsed, af)
	}
	findGOROOT()
	imp := importer.ForCompiler(fset, "source", nil)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: imp}
	if _, err := conf.Check(parsed[0].Name.Name, fset, parsed, info); err != nil {
		return nil, 0, fmt.Errorf("the package does not type-check: %w", err)
	}
	seen := map[string]bool{}
	ids := map[string]int{}
	for i, af := range parsed {
		g := &gen{fset: fset, src: files[i].Data, info: info}
		g.file(af)
		for _, c := range g.changes {
			out := apply(files[i].Data, c.edits)
			if seen[string(out)] || bytes.Equal(out, files[i].Data) {
				continue
			}
			seen[string(out)] = true
			all := slices.Clone(files)
			all[i] = course.File{Name: files[i].Name, Data: out}
			if !typeChecks(imp, all) {
				invalid++
				continue
			}
			id := c.fn + ": " + c.desc
			ids[id]++
			if n := ids[id]; n > 1 {
				id += " (" + strconv.Itoa(n) + ")"
			}
			mutants = append(mutants, Mutant{
				ID: id, File: files[i].Name, Line: c.line, Files: all,
				Diff: string(diff.Diff("a/"+files[i].Name, files[i].Data, "b/"+files[i].Name, out)),
			})
		}
	}
	return mutants, invalid, nil
}

func typeChecks(imp types.Importer, files []course.File) bool {
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		parsed = append(parsed, af)
	}
	_, err := (&types.Config{Importer: imp}).Check(parsed[0].Name.Name, fset, parsed, nil)
	return err == nil
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// change is one mutant of one file.
type change struct {
	fn, desc string
	line     int
	edits    []edit
}

func apply(src []byte, edits []edit) []byte {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	out := slices.Clone(src)
	for _, e := range edits {
		out = slices.Concat(out[:e.start], []byte(e.text), out[e.end:])
	}
	return out
}

type gen struct {
	fset    *token.FileSet
	src     []byte
	info    *types.Info
	fn      string // the function being walked
	changes []change
	// strings are the file's distinct string literals, in order: a
	// learner who mixes up two states writes one where the other belongs.
	strings []string
}

func (g *gen) off(p token.Pos) int { return g.fset.Position(p).Offset }

// text returns the source of n on one line, shortened for an id.
func (g *gen) text(n ast.Node) string {
	s := strings.Join(strings.Fields(string(g.src[g.off(n.Pos()):g.off(n.End())])), " ")
	if first, _, ok := strings.Cut(s, "{"); ok && len(s) > 60 {
		s = strings.TrimSpace(first)
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

func (g *gen) add(n ast.Node, desc string, edits ...edit) {
	g.changes = append(g.changes, change{fn: g.fn, desc: desc, line: g.fset.Position(n.Pos()).Line, edits: edits})
}

func (g *gen) file(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		if _, ok := n.(*ast.ImportSpec); ok {
			return false
		}
		if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING && !slices.Contains(g.strings, l.Value) {
			g.strings = append(g.strings, l.Value)
		}
		return true
	})
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			// Package-level values, such as a quiz's answers.
			g.fn = "var"
			for _, spec := range gd.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					ast.Inspect(v, g.node)
				}
			}
		}
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		g.fn = course.FuncName(fd)
		ast.Inspect(fd.Body, g.node)
	}
}

// Operators that exchange one binary operator for another.
var (
	negated   = map[token.Token]token.Token{token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ, token.LEQ: token.GTR, token.EQL: token.NEQ, token.NEQ: token.EQL}
	loosened  = map[token.Token]token.Token{token.LSS: token.LEQ, token.LEQ: token.LSS, token.GTR: token.GEQ, token.GEQ: token.GTR}
	swapped   = map[token.Token]token.Token{token.ADD: token.SUB, token.SUB: token.ADD, token.MUL: token.QUO, token.QUO: token.MUL, token.LAND: token.LOR, token.LOR: token.LAND}
	incdec    = map[token.Token]token.Token{token.INC: token.DEC, token.DEC: token.INC}
	opAssigns = map[token.Token]token.Token{token.ADD_ASSIGN: token.SUB_ASSIGN, token.SUB_ASSIGN: token.ADD_ASSIGN}
)

func (g *gen) node(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.BinaryExpr:
		for _, m := range []map[token.Token]token.Token{negated, loosened, swapped} {
			if to, ok := m[n.Op]; ok && g.numericOrBool(n) {
				g.add(n, fmt.Sprintf("%s → %s in `%s`", n.Op, to, g.text(n)),
					edit{g.off(n.OpPos), g.off(n.OpPos) + len(n.Op.String()), to.String()})
			}
		}
	case *ast.BasicLit:
		if n.Kind == token.STRING {
			for _, to := range g.strings {
				if to != n.Value {
					g.add(n, fmt.Sprintf("%s → %s", n.Value, to), edit{g.off(n.Pos()), g.off(n.End()), to})
				}
			}
			break
		}
		if n.Kind != token.INT && n.Kind != token.FLOAT {
			break
		}
		x, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil {
			break
		}
		for _, d := range []float64{1, -1} {
			to := strconv.FormatFloat(x+d, 'f', -1, 64)
			if n.Kind == token.FLOAT && !strings.ContainsAny(to, ".e") {
				to += ".0"
			}
			g.add(n, fmt.Sprintf("%s → %s", n.Value, to), edit{g.off(n.Pos()), g.off(n.End()), to})
		}
	case *ast.Ident:
		if obj := g.info.Uses[n]; obj != nil && obj.Parent() == types.Universe && (n.Name == "true" || n.Name == "false") {
			to := map[string]string{"true": "false", "false": "true"}[n.Name]
			g.add(n, fmt.Sprintf("%s → %s", n.Name, to), edit{g.off(n.Pos()), g.off(n.End()), to})
		}
	case *ast.BlockStmt:
		g.block(n.List)
	case *ast.CaseClause:
		g.block(n.Body)
	case *ast.IfStmt:
		cond := g.text(n.Cond)
		if els, ok := n.Else.(*ast.BlockStmt); ok {
			a := g.src[g.off(n.Body.Lbrace)+1 : g.off(n.Body.Rbrace)]
			b := g.src[g.off(els.Lbrace)+1 : g.off(els.Rbrace)]
			g.add(n, fmt.Sprintf("swap the branches of `if %s`", cond),
				edit{g.off(n.Body.Lbrace) + 1, g.off(n.Body.Rbrace), string(b)},
				edit{g.off(els.Lbrace) + 1, g.off(els.Rbrace), string(a)})
		} else if n.Else == nil {
			g.add(n, fmt.Sprintf("negate `if %s`", cond),
				edit{g.off(n.Cond.Pos()), g.off(n.Cond.End()), "!(" + string(g.src[g.off(n.Cond.Pos()):g.off(n.Cond.End())]) + ")"})
		}
	case *ast.SwitchStmt:
		g.cases(n.Body.List)
	}
	return true
}

// numericOrBool reports whether a binary expression works on numbers or
// booleans; exchanging operators on strings rarely type-checks and says
// little.
func (g *gen) numericOrBool(n *ast.BinaryExpr) bool {
	tv, ok := g.info.Types[n.X]
	if !ok || tv.Type == nil {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	if n.Op == token.EQL || n.Op == token.NEQ {
		return true // equality of anything: negating it is a real mistake
	}
	return b.Info()&(types.IsNumeric|types.IsBoolean) != 0
}

// block makes the mutants of the statements of a block: each dropped, and
// increments turned into decrements.
func (g *gen) block(list []ast.Stmt) {
	for _, s := range list {
		drop := false
		switch s := s.(type) {
		case *ast.AssignStmt:
			drop = s.Tok != token.DEFINE
			if to, ok := opAssigns[s.Tok]; ok {
				g.add(s, fmt.Sprintf("`%s` → `%s`", g.text(s), strings.Replace(g.text(s), s.Tok.String(), to.String(), 1)),
					edit{g.off(s.TokPos), g.off(s.TokPos) + len(s.Tok.String()), to.String()})
			}
		case *ast.IncDecStmt:
			drop = true
			to := incdec[s.Tok]
			g.add(s, fmt.Sprintf("`%s` → `%s`", g.text(s), g.text(s.X)+to.String()),
				edit{g.off(s.TokPos), g.off(s.TokPos) + len(s.Tok.String()), to.String()})
		case *ast.ExprStmt, *ast.ReturnStmt, *ast.IfStmt, *ast.SendStmt:
			drop = true
		}
		if drop {
			g.add(s, fmt.Sprintf("drop `%s`", g.text(s)), edit{g.off(s.Pos()), g.off(s.End()), ""})
		}
	}
}

// cases makes mutants that swap the bodies of two neighbouring cases of a
// switch, as when a learner mixes up which state does what.
func (g *gen) cases(list []ast.Stmt) {
	for i := 0; i+1 < len(list); i++ {
		a, ok1 := list[i].(*ast.CaseClause)
		b, ok2 := list[i+1].(*ast.CaseClause)
		if !ok1 || !ok2 {
			continue
		}
		ra, rb := g.body(a), g.body(b)
		ta, tb := g.src[ra.start:ra.end], g.src[rb.start:rb.end]
		if bytes.Equal(bytes.TrimSpace(ta), bytes.TrimSpace(tb)) {
			continue
		}
		g.add(a, fmt.Sprintf("swap the bodies of `%s` and `%s`", g.label(a), g.label(b)),
			edit{ra.start, ra.end, string(tb)}, edit{rb.start, rb.end, string(ta)})
	}
}

// body returns the range of a case clause's statements, after the colon.
func (g *gen) body(c *ast.CaseClause) edit {
	start := g.off(c.Colon) + 1
	end := start
	if len(c.Body) > 0 {
		end = g.off(c.Body[len(c.Body)-1].End())
	}
	return edit{start: start, end: end}
}

func (g *gen) label(c *ast.CaseClause) string {
	if c.List == nil {
		return "default"
	}
	var s []string
	for _, e := range c.List {
		s = append(s, g.text(e))
	}
	return "case " + strings.Join(s, ", ")
}

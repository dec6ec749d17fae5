package course

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// APICheck returns the API check of exercise id: a file compiled into the
// learner's package that assigns every exported function, method, variable
// and struct field of the reference solution to a variable of the
// reference's type, so that a learner's file with another signature fails
// to build with a message about the API. The reference is the only place
// that spells the API; the check is derived from its syntax alone.
//
// A variable declared without a type is pinned by its type when the
// value shows it (errors.New, a literal, a composite literal), else only
// by its existence. Generic functions and types are not pinned.
func APICheck(id string, solution []File) ([]byte, error) {
	fset := token.NewFileSet()
	var lines []string
	imports := map[string]string{} // name used in the check → import path
	for _, f := range solution {
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		fileImports := map[string]string{}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			name := p[strings.LastIndexByte(p, '/')+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			fileImports[name] = p
		}
		src := func(n ast.Node) string {
			ast.Inspect(n, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok {
						if p, ok := fileImports[x.Name]; ok {
							imports[x.Name] = p
						}
					}
				}
				return true
			})
			var b bytes.Buffer
			_ = printer.Fprint(&b, fset, n)
			return b.String()
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || d.Type.TypeParams != nil {
					continue
				}
				if d.Recv == nil {
					lines = append(lines, fmt.Sprintf("_ %s = %s", src(d.Type), d.Name.Name))
					continue
				}
				recv, ptr, ok := receiver(d.Recv)
				if !ok || !ast.IsExported(recv) {
					continue
				}
				expr, recvType := recv+"."+d.Name.Name, recv
				if ptr {
					expr, recvType = "(*"+recv+")."+d.Name.Name, "*"+recv
				}
				params := []string{recvType}
				for _, p := range d.Type.Params.List {
					for range max(len(p.Names), 1) {
						params = append(params, src(p.Type))
					}
				}
				var results []string
				if d.Type.Results != nil {
					for _, r := range d.Type.Results.List {
						for range max(len(r.Names), 1) {
							results = append(results, src(r.Type))
						}
					}
				}
				res := strings.Join(results, ", ")
				if len(results) > 1 {
					res = "(" + res + ")"
				}
				if res != "" {
					res = " " + res
				}
				lines = append(lines, fmt.Sprintf("_ func(%s)%s = %s", strings.Join(params, ", "), res, expr))
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for i, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							if d.Tok == token.CONST {
								lines = append(lines, "_ = "+n.Name)
								continue
							}
							typ := ""
							if s.Type != nil {
								typ = src(s.Type)
							} else if i < len(s.Values) {
								typ = typeOf(s.Values[i], src)
							}
							if typ == "" {
								lines = append(lines, "_ = &"+n.Name)
							} else {
								lines = append(lines, fmt.Sprintf("_ *%s = &%s", typ, n.Name))
							}
						}
					case *ast.TypeSpec:
						st, ok := s.Type.(*ast.StructType)
						if !ok || !s.Name.IsExported() || s.TypeParams != nil || s.Assign != 0 {
							continue
						}
						for _, f := range st.Fields.List {
							for _, n := range f.Names {
								if n.IsExported() {
									lines = append(lines, fmt.Sprintf("_ %s = %s{}.%s", src(f.Type), s.Name.Name, n.Name))
								}
							}
						}
					}
				}
			}
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "package %s\n\n", id)
	const guard = `_ "github.com/kurs-course/kurs/internal/harness/guard"`
	if len(imports) == 0 {
		b.WriteString("import " + guard + "\n\n")
	} else {
		b.WriteString("import (\n\t" + guard + "\n")
		names := make([]string, 0, len(imports))
		for n := range imports {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			if p := imports[n]; n == p[strings.LastIndexByte(p, '/')+1:] {
				fmt.Fprintf(&b, "\t%q\n", p)
			} else {
				fmt.Fprintf(&b, "\t%s %q\n", n, p)
			}
		}
		b.WriteString(")\n\n")
	}
	b.WriteString("// The API that kurs expects, derived from the reference solution; a\n// compile error here means a name, a parameter or a result type differs\n// from the exercise's.\n")
	if len(lines) > 0 {
		b.WriteString("var (\n")
		for _, l := range lines {
			b.WriteString("\t" + l + "\n")
		}
		b.WriteString(")\n")
	}
	return format.Source(b.Bytes())
}

// FuncName returns the name a function declaration goes by in kurs's
// messages and tables: "Type.Method" for a method (whether its receiver is
// a pointer or has type parameters), the plain name for a function.
func FuncName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) != 1 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}

// receiver returns the name of a method's receiver type and whether it is
// a pointer; ok is false for a generic receiver.
func receiver(fl *ast.FieldList) (name string, ptr, ok bool) {
	if fl == nil || len(fl.List) != 1 {
		return "", false, false
	}
	t := fl.List[0].Type
	if st, isPtr := t.(*ast.StarExpr); isPtr {
		t, ptr = st.X, true
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return "", false, false
	}
	return id.Name, ptr, true
}

// typeOf returns the type of an initial value when its syntax shows it, or
// "".
func typeOf(v ast.Expr, src func(ast.Node) string) string {
	switch v := v.(type) {
	case *ast.BasicLit:
		return map[token.Token]string{token.INT: "int", token.FLOAT: "float64", token.STRING: "string", token.CHAR: "rune", token.IMAG: "complex128"}[v.Kind]
	case *ast.CompositeLit:
		if v.Type != nil {
			return src(v.Type)
		}
	case *ast.UnaryExpr:
		if c, ok := v.X.(*ast.CompositeLit); ok && v.Op == token.AND && c.Type != nil {
			return "*" + src(c.Type)
		}
	case *ast.CallExpr:
		if sel, ok := v.Fun.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "errors" && sel.Sel.Name == "New" || x.Name == "fmt" && sel.Sel.Name == "Errorf") {
				return "error"
			}
		}
	case *ast.Ident:
		if v.Name == "true" || v.Name == "false" {
			return "bool"
		}
	}
	return ""
}

package checker

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// apiFile is the name of the API check that is compiled into the learner's
// package; a learner file of that name would be replaced, so it is refused.
const apiFile = "zz_kurs_api.go"

// maxFileSize bounds a learner file; real solutions are a few KB.
const maxFileSize = 1 << 20

// maxFiles bounds the number of a learner's files in one exercise; real
// solutions have one or two.
const maxFiles = 32

// refusedDirectives are compiler directives that reach outside the
// language's safety (linkname), pull in files (embed) or enable cgo.
var refusedDirectives = []string{"//go:linkname", "//go:embed", "//go:cgo_", "//export"}

// inspect checks the learner's files before anything is built: package
// name, imports against the allowlist, and directives. It returns the first
// problem, or nil.
func inspect(id string, files []source, allowed []string) *Problem {
	if len(files) == 0 {
		return &Problem{Kind: ProblemNoFiles}
	}
	if len(files) > maxFiles {
		return &Problem{Kind: ProblemTooMany, Detail: strconv.Itoa(maxFiles)}
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if f.Name == apiFile {
			return &Problem{Kind: ProblemReservedName, File: f.Path}
		}
		if f.TooLarge || len(f.Data) > maxFileSize {
			return &Problem{Kind: ProblemTooLarge, File: f.Path, Detail: strconv.FormatInt(max(f.Size, maxFileSize+1), 10)}
		}
		if !utf8.Valid(f.Data) {
			return &Problem{Kind: ProblemNotUTF8, File: f.Path, Line: firstInvalidLine(f.Data)}
		}
		af, err := parser.ParseFile(fset, f.Path, f.Data, parser.ParseComments)
		if err != nil {
			return &Problem{Kind: ProblemCompile, Detail: syntaxErrors(err)}
		}
		if af.Name.Name != id {
			return &Problem{Kind: ProblemPackage, File: f.Path, Line: fset.Position(af.Name.Pos()).Line, Detail: af.Name.Name}
		}
		for _, imp := range af.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				continue // the parser has already rejected a malformed path
			}
			if !slices.Contains(allowed, p) {
				return &Problem{Kind: ProblemImport, File: f.Path, Line: fset.Position(imp.Pos()).Line, Detail: p, Allowed: allowed}
			}
		}
		if p := directive(fset, af, f.Path); p != nil {
			return p
		}
	}
	return nil
}

// directive returns a problem for the first refused compiler directive.
func directive(fset *token.FileSet, af *ast.File, path string) *Problem {
	for _, g := range af.Comments {
		for _, c := range g.List {
			for _, d := range refusedDirectives {
				if strings.HasPrefix(c.Text, d) {
					return &Problem{Kind: ProblemDirective, File: path, Line: fset.Position(c.Pos()).Line, Detail: strings.TrimPrefix(d, "//")}
				}
			}
		}
	}
	return nil
}

// syntaxErrors formats parse errors as the compiler would, at most ten.
func syntaxErrors(err error) string {
	list, ok := err.(scanner.ErrorList)
	if !ok {
		return err.Error()
	}
	var b strings.Builder
	for i, e := range list {
		if i == 10 {
			break
		}
		fmt.Fprintf(&b, "%s: %s\n", e.Pos, e.Msg)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func firstInvalidLine(data []byte) int {
	line := 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size <= 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		data = data[size:]
	}
	return line
}

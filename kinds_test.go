package kurs_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
)

// kindRegistry are the files that may compare an exercise's kind with a
// kind, or switch on it: the kind registry. Every other file asks the kind
// what it offers (course.Traits), so that each rule that differs by kind
// has one owner. docs/authoring.md names these files.
var kindRegistry = []string{"internal/course/kind.go"}

// dataTrait is the field of course.Traits that says what an exercise is
// made of: the files that read it decide what a kind of another make has,
// and docs/authoring.md names each.
const dataTrait = "Data"

// kindSections are the sections of the authoring guide, in each
// language, on adding an exercise kind: file and heading.
var kindSections = [][2]string{
	{"docs/authoring.md", "## Adding an exercise kind"},
	{"docs/authoring.de.md", "## Eine neue Art von Übung"},
}

// TestKindsComparedOnlyInRegistry fails on a comparison of an exercise
// kind, or of a kind made a string, with a constant (course.KindQuiz,
// course.Kind("quiz"), "quiz", a constant of its own), or a switch on a
// kind with constant cases, in any non-test Go file outside the kind
// registry. It reads types, not names, so that neither a renamed import
// nor a new or renamed kind escapes it.
func TestKindsComparedOnlyInRegistry(t *testing.T) {
	for _, at := range kindUses(t).comparisons {
		t.Errorf("%s compares an exercise's kind with a kind: ask its Traits instead, or move the rule into %s", at, strings.Join(kindRegistry, ", "))
	}
}

// TestAuthoringNamesTheKindRegistry holds the section on adding an
// exercise kind of the authoring guide, in each language, to the code: it
// names every file of the kind registry and every file that asks what an
// exercise is made of, and every file it names exists.
func TestAuthoringNamesTheKindRegistry(t *testing.T) {
	readers := kindUses(t).dataReaders
	require.NotEmpty(t, readers, "no file reads course.Traits.%s", dataTrait)
	for _, s := range kindSections {
		doc, heading := s[0], s[1]
		section := docSection(t, doc, heading)
		for _, f := range kindRegistry {
			assert.True(t, strings.Contains(section, "`"+f+"`"), "%s, %q, does not name the kind registry's file %s", doc, heading, f)
		}
		for _, f := range readers {
			assert.True(t, strings.Contains(section, "`"+f+"`"), "%s, %q, does not name %s, which reads the trait %s", doc, heading, f, dataTrait)
		}
		named := regexp.MustCompile("`((?:internal|docs|i18n|web|checker|cmd)/[^` ]+)`").FindAllStringSubmatch(section, -1)
		require.NotEmpty(t, named, "%s, %q, names no file", doc, heading)
		for _, m := range named {
			_, err := os.Stat(m[1])
			assert.NoError(t, err, "%s, %q, names %s", doc, heading, m[1])
		}
		// A list item that names one Go file and functions in it, as
		// "- `internal/course/course.go`: … (`loadExercise`) …": each
		// function is declared there and reads the trait.
		for _, item := range regexp.MustCompile(`(?m)^- `).Split(section, -1) {
			file := regexp.MustCompile("^`([^` ]+\\.go)`:").FindStringSubmatch(item)
			if file == nil {
				continue
			}
			src, err := os.ReadFile(file[1])
			require.NoError(t, err)
			for _, fn := range regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_]*)`").FindAllStringSubmatch(item, -1) {
				decl := regexp.MustCompile(`(?m)^func (\([^)]*\) )?` + fn[1] + `[(\[]`).FindStringIndex(string(src))
				if !assert.NotNil(t, decl, "%s, %q, names %s in %s, which does not declare it", doc, heading, fn[1], file[1]) {
					continue
				}
				body, _, _ := strings.Cut(string(src[decl[0]:]), "\n}\n")
				assert.True(t, strings.Contains(body, "Traits()."+dataTrait), "%s, %q, names %s in %s, which does not read the trait %s", doc, heading, fn[1], file[1], dataTrait)
			}
		}
	}
}

// TestMessagesNameEveryKind: the texts that list the kinds, which
// docs/authoring.md names as places a new kind takes, list every kind, in
// every language.
func TestMessagesNameEveryKind(t *testing.T) {
	for _, lang := range []string{"de", "en"} {
		p := i18n.New(lang)
		for _, msg := range []string{
			p.T("validate.problem_kind", "Got", "other"),
			p.T("validate.new_bad_kind", "Kind", "other"),
			p.T("help.new"),
		} {
			for _, k := range course.Kinds {
				assert.Contains(t, msg, string(k), "%s: %s", lang, msg)
			}
		}
	}
}

// docSection returns the section of the Markdown file name that starts
// with the heading line, up to the next heading of its level.
func docSection(t *testing.T, name, heading string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	text := string(data)
	start := strings.Index(text, "\n"+heading+"\n")
	require.GreaterOrEqual(t, start, 0, "%s has no section %q", name, heading)
	text = text[start+len(heading)+2:]
	level := heading[:strings.IndexByte(heading, ' ')+1]
	if end := strings.Index(text, "\n"+level); end >= 0 {
		text = text[:end]
	}
	return text
}

// kindsFound is what kindUses finds in the module's non-test Go files,
// each as a slash-separated path from the module's root.
type kindsFound struct {
	comparisons []string // "file:line" of a kind compared with a constant kind, outside the registry
	dataReaders []string // files that read course.Traits.Data, sorted
}

var (
	kindsOnce sync.Once
	kinds     kindsFound
	kindsErr  error
)

// kindUses type-checks the module once for the tests that need it.
func kindUses(t *testing.T) kindsFound {
	t.Helper()
	kindsOnce.Do(func() { kinds, kindsErr = scanKinds() })
	require.NoError(t, kindsErr)
	return kinds
}

// listedPackage is what go list -json tells of a package.
type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Export     string
	DepOnly    bool
	Module     *struct{ Path string }
}

// scanKinds type-checks every package of the module, without its tests,
// and finds where a kind is compared with a constant kind outside the
// registry, and which files read the trait dataTrait.
func scanKinds() (kindsFound, error) {
	var found kindsFound
	root, err := os.Getwd()
	if err != nil {
		return found, err
	}
	// The export data of every dependency lets each package be checked
	// from its source alone, with the compiler's build cache.
	cmd := exec.Command("go", "list", "-e", "-export", "-deps", "-json=ImportPath,Dir,GoFiles,Export,DepOnly,Module", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return found, errors.New("go list: " + err.Error() + ": " + stderr.String())
	}
	var pkgs []listedPackage
	exports := map[string]string{}
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return found, err
		}
		exports[p.ImportPath] = p.Export
		if !p.DepOnly && p.Module != nil && p.Module.Path == modulePath {
			pkgs = append(pkgs, p)
		}
	}

	fset := token.NewFileSet()
	// One importer for all packages, so that each dependency is read once.
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if exports[path] == "" {
			return nil, errors.New("no export data for " + path)
		}
		return os.Open(exports[path])
	})
	seen := 0 // constant kinds anywhere, so that the scan cannot pass by seeing none of them
	readers := map[string]bool{}
	for _, p := range pkgs {
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				return found, err
			}
			files = append(files, f)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check(p.ImportPath, fset, files, info); err != nil {
			return found, errors.New("type-checking " + p.ImportPath + ": " + err.Error())
		}
		for _, tv := range info.Types {
			if tv.Value != nil && isCourseType(tv.Type, "Kind") {
				seen++
			}
		}
		// kindValued reports whether e is a kind, or a kind converted
		// (string(k)).
		var kindValued func(e ast.Expr) bool
		kindValued = func(e ast.Expr) bool {
			e = ast.Unparen(e)
			if isCourseType(info.Types[e].Type, "Kind") {
				return true
			}
			call, ok := e.(*ast.CallExpr)
			return ok && len(call.Args) == 1 && info.Types[call.Fun].IsType() && kindValued(call.Args[0])
		}
		// named reports whether e is a constant that can name a kind; a
		// comparison with "" asks whether a kind is given, not which.
		named := func(e ast.Expr) bool {
			v := info.Types[e].Value
			return v != nil && v.Kind() == constant.String && constant.StringVal(v) != ""
		}
		for _, f := range files {
			rel, err := filepath.Rel(root, fset.Position(f.Pos()).Filename)
			if err != nil {
				return found, err
			}
			rel = filepath.ToSlash(rel)
			registry := slices.Contains(kindRegistry, rel)
			ast.Inspect(f, func(n ast.Node) bool {
				var compared []ast.Expr // constants a kind is compared with
				switch n := n.(type) {
				case *ast.BinaryExpr:
					if n.Op != token.EQL && n.Op != token.NEQ {
						break
					}
					if kindValued(n.X) || kindValued(n.Y) {
						compared = []ast.Expr{n.X, n.Y}
					}
				case *ast.SwitchStmt:
					if n.Tag != nil && kindValued(n.Tag) {
						for _, c := range n.Body.List {
							compared = append(compared, c.(*ast.CaseClause).List...)
						}
					}
				case *ast.SelectorExpr:
					if s := info.Selections[n]; s != nil && s.Kind() == types.FieldVal && s.Obj().Name() == dataTrait && isCourseType(s.Recv(), "Traits") {
						readers[rel] = true
					}
				}
				for _, e := range compared {
					if named(e) && !registry {
						found.comparisons = append(found.comparisons, rel+":"+strconv.Itoa(fset.Position(e.Pos()).Line))
					}
				}
				return true
			})
		}
	}
	if seen == 0 {
		return found, errors.New("the module has no constant course.Kind, not even in " + strings.Join(kindRegistry, ", ") + ": the scan is blind")
	}
	for f := range readers {
		if !slices.Contains(kindRegistry, f) {
			found.dataReaders = append(found.dataReaders, f)
		}
	}
	slices.Sort(found.dataReaders)
	return found, nil
}

// isCourseType reports whether typ is the named type name of package
// course. Each package is checked on its own, so the type is known by its
// name, not by its identity.
func isCourseType(typ types.Type, name string) bool {
	named, ok := typ.(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == modulePath+"/internal/course" && obj.Name() == name
}

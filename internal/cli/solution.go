package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/session"
	"github.com/kurs-course/kurs/internal/termdoc"
	"github.com/kurs-course/kurs/internal/workspace"
)

func solutionVerb() *verb { return command("solution", nil, solution) }

// solution shows the reference solution of an exercise next to the
// learner's code, once the learner has passed it.
func solution(e *env, _ *noOptions, args []string) error {
	if len(args) != 1 {
		return e.usageErr("error.solution_args")
	}
	ws, c, exs, err := e.open(args)
	if err != nil {
		return err
	}
	ex := exs[0]
	st, err := session.ReadStanding(ws, c)
	if err != nil {
		return err
	}
	// The solution is a reward and a comparison, not a shortcut: it
	// opens once the learner's own code has passed, and stays open.
	if !st.SolutionOpen(ex) {
		return &failedError{e.p.T("solution.locked", "Exercise", ex.ID)}
	}
	ref, err := ex.Solution()
	if err != nil {
		return err
	}
	skeleton, _ := ex.Skeleton(e.p.Lang())
	scr := e.screen()
	var mine, theirs []file
	names, err := ws.Sources(ex.ID)
	if err != nil {
		return err
	}
	for _, name := range names {
		data, err := workspace.ReadFileMax(filepath.Join(ws.Dir, filepath.FromSlash(name)), workspace.MaxBackupFile)
		if err != nil {
			return err
		}
		mine = append(mine, file{e.p.T("solution.mine", "File", name), string(data)})
	}
	for _, f := range ref {
		src := string(f.Data)
		if e.p.Lang() != "en" {
			src = localDocs(src, skeleton)
		}
		theirs = append(theirs, file{e.p.T("solution.reference", "File", f.Name), src})
	}
	// Whole lines side by side when both sides fit; else one under the
	// other, a line too long for the terminal broken as a lesson's code.
	panels := func(files []file, width int) []string {
		var out []string
		for _, f := range files {
			out = append(out, panel(f.header, termdoc.Code(f.src, "go", width, scr.color))...)
		}
		return out
	}
	left, right := panels(mine, 0), panels(theirs, 0)
	if len(names) == 0 {
		left = panel(e.p.T("solution.mine", "File", ex.ID+"/"), []string{e.p.T("solution.no_files")})
	}
	var b strings.Builder
	b.WriteString(scr.fit(e.p.T("solution.intro", "Exercise", ex.ID)) + "\n\n")
	if l := widest(left); l+3+widest(right) <= scr.width {
		sideBySide(&b, left, right, l)
	} else {
		if len(names) > 0 {
			left = panels(mine, scr.wrap())
		}
		for _, l := range append(left, panels(theirs, scr.wrap())...) {
			b.WriteString(l + "\n")
		}
	}
	_, err = io.WriteString(e.Out, b.String())
	return err
}

// localDocs returns the reference source src with the doc comments of its
// package and top-level declarations in the learner's language: those of
// the same declarations in the skeleton, which is written in it. A
// declaration the skeleton does not document keeps its comment.
func localDocs(src string, skeleton []course.File) string {
	docs := map[string]string{}
	fset := token.NewFileSet()
	for _, f := range skeleton {
		file, err := parser.ParseFile(fset, f.Name, f.Data, parser.ParseComments)
		if err != nil {
			continue
		}
		if file.Doc != nil {
			// The skeleton's package comment goes on to explain the
			// exercise; its first paragraph says what the package is.
			first, _, _ := strings.Cut(commentText(f.Data, fset, file.Doc), "\n//\n")
			docs["package"] = first
		}
		for name, doc := range declDocs(file) {
			docs[name] = commentText(f.Data, fset, doc)
		}
	}
	file, err := parser.ParseFile(fset, "ref.go", src, parser.ParseComments)
	if err != nil || len(docs) == 0 {
		return src
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	replace := func(name string, doc *ast.CommentGroup) {
		if t, ok := docs[name]; ok && doc != nil {
			edits = append(edits, edit{fset.Position(doc.Pos()).Offset, fset.Position(doc.End()).Offset, t})
		}
	}
	replace("package", file.Doc)
	for name, doc := range declDocs(file) {
		replace(name, doc)
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.from - a.from })
	for _, ed := range edits {
		src = src[:ed.from] + ed.text + src[ed.to:]
	}
	return src
}

// declDocs returns the doc comments of a file's top-level declarations by
// name: "New", "CircuitBreaker", "CircuitBreaker.Allow".
func declDocs(file *ast.File) map[string]*ast.CommentGroup {
	docs := map[string]*ast.CommentGroup{}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := course.FuncName(d)
			if d.Doc != nil {
				docs[name] = d.Doc
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				var name string
				doc := d.Doc
				switch s := s.(type) {
				case *ast.TypeSpec:
					name = s.Name.Name
					if s.Doc != nil {
						doc = s.Doc
					}
				case *ast.ValueSpec:
					name = s.Names[0].Name
					if s.Doc != nil {
						doc = s.Doc
					}
				}
				if name != "" && doc != nil && len(d.Specs) == 1 || name != "" && doc != nil && doc != d.Doc {
					docs[name] = doc
				}
			}
		}
	}
	return docs
}

// commentText returns the source text of a comment group.
func commentText(src []byte, fset *token.FileSet, c *ast.CommentGroup) string {
	return string(src[fset.Position(c.Pos()).Offset:fset.Position(c.End()).Offset])
}

// file is a source file shown by kurs solution, under its header.
type file struct{ header, src string }

// panel is a file's lines under a header.
func panel(header string, lines []string) []string {
	out := []string{header, strings.Repeat("─", termdoc.Width(header))}
	return append(append(out, lines...), "")
}

// widest returns the width of the widest line. Two sides stand next to
// each other only when both fit whole: a cut line of code misleads.
func widest(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, termdoc.Width(l))
	}
	return w
}

// sideBySide writes left and right as two columns of width col.
func sideBySide(b *strings.Builder, left, right []string, col int) {
	for i := range max(len(left), len(right)) {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		b.WriteString(strings.TrimRight(l+strings.Repeat(" ", col-termdoc.Width(l))+" │ "+r, " ") + "\n")
	}
}

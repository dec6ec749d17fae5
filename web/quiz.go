package web

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/textsafe"
	"github.com/kurs-course/kurs/internal/workspace"
)

// The quiz is answered in the page, but graded like every exercise: from
// the learner's file. The page therefore edits that file: it replaces the
// value of `var Answer = [2]string{…}` and leaves everything else as the
// learner wrote it, after a backup of the old file.

// quizVar is the variable a quiz answer goes into.
const quizVar = "Answer"

// errAssigned means the learner's code sets Answer somewhere else than in
// its declaration (say, in init), where the page cannot change it without
// rewriting the learner's code.
type errAssigned struct{ at string }

func (e *errAssigned) Error() string {
	return e.at + ": " + quizVar + " is assigned outside its declaration"
}

// errNoAnswer means neither the learner's files nor the skeleton declare
// Answer as an array literal.
var errNoAnswer = errors.New("no declaration var " + quizVar + " = [N]string{…}")

// answerDecl is where Answer's value stands in a file.
type answerDecl struct {
	rel        string // relative to the workspace, slash-separated
	src        []byte
	start, end int // byte offsets of the composite literal
	typ        string
	values     []string
}

// findAnswer looks for Answer's declaration in Go source, and for
// assignments to Answer elsewhere.
func findAnswer(rel string, src []byte) (*answerDecl, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var decl *answerDecl
	var assigned error
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if name.Name != quizVar || i >= len(n.Values) {
					continue
				}
				lit, ok := n.Values[i].(*ast.CompositeLit)
				if !ok {
					continue
				}
				d := &answerDecl{rel: rel, src: src, start: fset.Position(lit.Pos()).Offset, end: fset.Position(lit.End()).Offset}
				if lit.Type != nil {
					d.typ = string(src[fset.Position(lit.Type.Pos()).Offset:fset.Position(lit.Type.End()).Offset])
				}
				for _, e := range lit.Elts {
					v := ""
					if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
						v, _ = strconv.Unquote(b.Value)
					}
					d.values = append(d.values, harness.Answer(v))
				}
				decl = d
			}
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if ix, ok := lhs.(*ast.IndexExpr); ok {
					lhs = ix.X
				}
				if id, ok := lhs.(*ast.Ident); ok && id.Name == quizVar && assigned == nil {
					pos := fset.Position(id.Pos())
					assigned = &errAssigned{at: fmt.Sprintf("%s:%d", rel, pos.Line)}
				}
			}
		}
		return true
	})
	if assigned != nil {
		return decl, assigned
	}
	return decl, nil
}

// withValues returns the file with Answer set to values.
func (d *answerDecl) withValues(values []string) []byte {
	typ := d.typ
	if typ == "" {
		typ = fmt.Sprintf("[%d]string", len(values))
	}
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	var b bytes.Buffer
	b.Write(d.src[:d.start])
	b.WriteString(typ + "{" + strings.Join(q, ", ") + "}")
	b.Write(d.src[d.end:])
	return b.Bytes()
}

// learnerAnswer finds Answer in the learner's files of ex.
func (s *Server) learnerAnswer(ex *course.Exercise) (*answerDecl, error) {
	names, _ := checker.ReadSources(s.ws.ExerciseDir(ex.ID), ex.ID)
	var decl *answerDecl
	for _, rel := range names {
		src, err := s.ws.ReadFile(rel)
		if err != nil {
			return nil, err
		}
		d, err := findAnswer(rel, src)
		var ea *errAssigned
		if errors.As(err, &ea) {
			return nil, err
		}
		if d != nil && decl == nil {
			decl = d
		}
	}
	return decl, nil
}

// currentAnswers returns the letters in the learner's file, one per case.
func (s *Server) currentAnswers(ex *course.Exercise) ([]string, error) {
	d, err := s.learnerAnswer(ex)
	if err != nil || d == nil {
		return nil, err
	}
	return d.values, nil
}

// writeAnswer puts the answers into the learner's file, or into a fresh
// skeleton when no file declares Answer, and reports whether the file
// changed. A change is backed up first; answers that are already in the
// file write nothing and leave no backup.
func (s *Server) writeAnswer(ex *course.Exercise, answers []string, lang string) (bool, error) {
	d, err := s.learnerAnswer(ex)
	if err != nil {
		return false, err
	}
	if d != nil && bytes.Equal(d.withValues(answers), d.src) {
		return false, nil
	}
	if d == nil {
		files, err := ex.Skeleton(lang)
		if err != nil {
			return false, err
		}
		for _, f := range files {
			if sd, _ := findAnswer(path.Join(ex.ID, f.Name), f.Data); sd != nil {
				d = sd
				break
			}
		}
	}
	if d == nil {
		return false, errNoAnswer
	}
	_, err = s.ws.WriteFiles([]string{d.rel}, [][]byte{d.withValues(answers)})
	return err == nil, err
}

// answer saves the quiz answers from the page and grades them at once.
func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exerciseOf(w, r)
	if !ok {
		return
	}
	p := s.printer(w, r)
	if !ex.Traits().Answers {
		s.message(w, r, http.StatusBadRequest, p.T("web.quiz.not_a_quiz", "Exercise", ex.ID))
		return
	}
	n := 0
	for _, c := range ex.Quiz {
		n = max(n, c.Case)
	}
	answers := make([]string, n)
	if cur, err := s.currentAnswers(ex); err == nil {
		copy(answers, cur)
	}
	for _, c := range ex.Quiz {
		v := strings.ToUpper(strings.TrimSpace(r.PostFormValue("case" + strconv.Itoa(c.Case))))
		if v == "" {
			continue
		}
		if !slices.Contains(c.Letters(), v) {
			s.message(w, r, http.StatusBadRequest, p.T("web.quiz.bad_option", "Case", c.Case, "Given", textsafe.Line(p, v, textsafe.AnswerMax)))
			return
		}
		answers[c.Case-1] = v
	}
	// The file is written while no check of it runs, so that the check
	// reads the old answers or the new ones.
	var changed bool
	err := s.loop.Edit(ex, func() (err error) {
		changed, err = s.writeAnswer(ex, answers, p.Lang())
		return err
	})
	if err != nil {
		s.message(w, r, http.StatusConflict, quizProblem(p, err))
		return
	}
	if _, err := s.checkNow(r, ex); err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.check", "Err", err))
		return
	}
	done := ""
	if changed {
		done = "answer"
	}
	s.after(w, r, ex, "result", done)
}

// quizProblem explains why the page cannot read or write the answer.
func quizProblem(p *i18n.Printer, err error) string {
	var ea *errAssigned
	switch {
	case errors.As(err, &ea):
		return p.T("web.quiz.assigned", "At", ea.at)
	}
	var eo *workspace.OutsideError
	if errors.As(err, &eo) {
		return p.T("web.error.outside", "Path", eo.Rel)
	}
	return p.T("web.quiz.unreadable", "Err", err)
}

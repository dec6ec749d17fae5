package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/workspace"
)

// The exercise page is a place to work: the task on one side, the
// learner's file (editable in the page), the check and its result on the
// other. This file holds what that needs beyond showing a result: the
// line a result points at, saving from the page, the next exercise, and
// the quiz's introduction (its cases and options come from the course
// model).

// maxSource is the largest file the page saves; the checker refuses
// larger ones anyway.
const maxSource = 1 << 20

// sum returns the hex SHA-256 of data: the version of a file that the page
// edits, so that a save can tell whether the file changed meanwhile.
func sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// codeMark is the line of the learner's code that a result points at.
type codeMark struct {
	File   string // relative to the workspace, slash-separated
	Line   int
	Method string // the method the failing step calls, when the line is its declaration
}

// markOf returns the line a result points at (explain.Position: where the
// build or the static checks stopped, the near miss of a name the API
// check missed, where a panic happened), or else the declaration of the
// method that the first failing step calls, in files (see codeSums). It
// returns the zero codeMark when there is no such line.
func markOf(res *checker.Result, files []codeFile) codeMark {
	if res == nil || res.Status == checker.Pass {
		return codeMark{}
	}
	if file, line := explain.Position(res); file != "" && line > 0 {
		return codeMark{File: file, Line: line}
	}
	t := res.FirstFailure()
	if res.Problem != nil || t == nil || t.Failure == nil || t.Failure.Kind == harness.Quiz {
		return codeMark{}
	}
	f := t.Failure
	method, _, _ := strings.Cut(f.Call, "(")
	if f.Step == 0 || method == "" {
		method = "New"
	}
	for _, file := range files {
		if file.Missing {
			continue
		}
		if line := declLine([]byte(file.Text), method, f.Step == 0); line > 0 {
			return codeMark{File: file.Rel, Line: line, Method: method}
		}
	}
	return codeMark{}
}

// declLine returns the line where the method (or, for the constructor,
// the function) name is declared in src, or 0.
func declLine(src []byte, name string, function bool) int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if f == nil || (err != nil && len(f.Decls) == 0) {
		return 0
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name || (fd.Recv == nil) != function {
			continue
		}
		return fset.Position(fd.Pos()).Line
	}
	return 0
}

// codeFile is one of the learner's files as the page edits it.
type codeFile struct {
	Rel, Abs string
	Text     string // the file's content, for the editor
	Sum      string // the version the page shows (see sum)
	Code     template.HTML
	Missing  bool // the file does not exist yet; the page shows the skeleton
}

// highlighted returns files (see codeSums) highlighted, with mark's line
// marked.
func highlighted(files []codeFile, mark codeMark) []codeFile {
	for i := range files {
		f := &files[i]
		line := 0
		if mark.File == f.Rel {
			line = mark.Line
		}
		code, err := highlightGoLines([]byte(f.Text), linesOf(line))
		if err != nil {
			code = template.HTML("<pre>" + template.HTMLEscapeString(f.Text) + "</pre>")
		}
		f.Code = code
	}
	return files
}

// codeSums returns the learner's files of ex, or the skeleton when the
// folder holds none: their names, texts and versions.
func (s *Server) codeSums(p *i18n.Printer, ex *course.Exercise) []codeFile {
	var out []codeFile
	names, _ := checker.ReadSources(s.ws.ExerciseDir(ex.ID), ex.ID)
	for _, rel := range names {
		data, err := s.ws.ReadFile(rel)
		if err != nil {
			continue
		}
		out = append(out, codeFile{Rel: rel, Text: string(data), Sum: sum(data)})
	}
	if len(out) == 0 {
		for _, f := range s.skeleton(p, ex) {
			out = append(out, codeFile{Rel: path.Join(ex.ID, f.Name), Text: string(f.Data), Sum: sum(nil), Missing: true})
		}
	}
	for i := range out {
		f := &out[i]
		f.Abs = s.ws.Dir + string(os.PathSeparator) + strings.ReplaceAll(f.Rel, "/", string(os.PathSeparator))
	}
	return out
}

// codeNames returns the names of the files codeSums returns, without
// reading them: the files a save from the page may write.
func (s *Server) codeNames(p *i18n.Printer, ex *course.Exercise) []string {
	names, _ := checker.ReadSources(s.ws.ExerciseDir(ex.ID), ex.ID)
	if len(names) == 0 {
		for _, f := range s.skeleton(p, ex) {
			names = append(names, path.Join(ex.ID, f.Name))
		}
	}
	return names
}

// skeleton returns the skeleton of ex in the page's language, or nothing.
func (s *Server) skeleton(p *i18n.Printer, ex *course.Exercise) []course.File {
	sk, err := ex.Skeleton(p.Lang())
	if err != nil {
		return nil
	}
	return sk
}

// linesOf returns one marked line as chroma's ranges, or none for 0.
func linesOf(line int) [][2]int {
	if line <= 0 {
		return nil
	}
	return [][2]int{{line, line}}
}

// filesJSON answers the page's question whether the learner's files
// changed outside it: each file's path, version and text.
func (s *Server) filesJSON(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exerciseOf(w, r)
	if !ok {
		return
	}
	p := s.printer(w, r)
	type file struct {
		Rel  string `json:"rel"`
		Sum  string `json:"sum"`
		Text string `json:"text"`
	}
	var out []file
	for _, f := range s.codeSums(p, ex) {
		out = append(out, file{f.Rel, f.Sum, f.Text})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(out)
}

// errConflict means that a file changed on disk since the page loaded it.
var errConflict = errors.New("changed outside the page")

// save writes the files edited in the page, atomically and after a backup
// of the old versions, and checks the exercise as a save in an editor
// would. A file that changed on disk since the page loaded it is not
// overwritten unless the page says so (force): the learner decides which
// version wins.
func (s *Server) save(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exerciseOf(w, r)
	if !ok {
		return
	}
	p := s.printer(w, r)
	if err := r.ParseForm(); err != nil {
		s.message(w, r, http.StatusBadRequest, p.T("web.editor.bad_request"))
		return
	}
	rels, texts, bases := r.PostForm["file"], r.PostForm["content"], r.PostForm["base"]
	force := r.PostForm.Get("force") == "1"
	if len(rels) == 0 || len(rels) != len(texts) || len(rels) != len(bases) {
		s.message(w, r, http.StatusBadRequest, p.T("web.editor.bad_request"))
		return
	}
	editable := map[string]bool{}
	for _, rel := range s.codeNames(p, ex) {
		editable[rel] = true
	}
	// One save at a time per exercise, and none while it is checked: the
	// check then reads either the old files or the new ones.
	var changed []string
	err := s.loop.Edit(ex, func() error {
		var data [][]byte
		for i, rel := range rels {
			if !editable[rel] {
				return &workspace.OutsideError{Rel: rel}
			}
			text := texts[i]
			if len(text) > maxSource || !utf8.ValidString(text) {
				return errTooLarge
			}
			old, rerr := s.ws.ReadFile(rel)
			if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				return rerr
			}
			if !bytes.Contains(old, []byte("\r\n")) {
				// A form sends line breaks as CRLF; keep the file's own.
				text = strings.ReplaceAll(text, "\r\n", "\n")
			}
			if !force && sum(old) != bases[i] {
				return errConflict
			}
			if string(old) != text || rerr != nil {
				changed = append(changed, rel)
				data = append(data, []byte(text))
			}
		}
		if len(changed) == 0 {
			return nil
		}
		_, err := s.ws.WriteFiles(changed, data)
		return err
	})
	switch {
	case errors.Is(err, errConflict):
		s.message(w, r, http.StatusConflict, p.T("web.editor.conflict"))
		return
	case errors.Is(err, errTooLarge):
		s.message(w, r, http.StatusRequestEntityTooLarge, p.T("web.editor.too_large"))
		return
	case err != nil:
		var eo *workspace.OutsideError
		if errors.As(err, &eo) {
			s.message(w, r, http.StatusForbidden, p.T("web.error.outside", "Path", eo.Rel))
			return
		}
		s.message(w, r, http.StatusInternalServerError, p.T("web.editor.failed", "Err", err))
		return
	}
	if _, err := s.checkNow(r, ex); err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.check", "Err", err))
		return
	}
	done := "saved"
	if len(changed) == 0 {
		done = "unchanged"
	}
	s.after(w, r, ex, "result", done)
}

// errTooLarge means a file from the page is larger than the checker reads,
// or not text.
var errTooLarge = errors.New("too large or not UTF-8")

// linkView is a link to an exercise, with its lesson.
type linkView struct {
	ID, Title, Lesson string
}

func (s *Server) link(p *i18n.Printer, ex *course.Exercise) *linkView {
	if ex == nil {
		return nil
	}
	v := &linkView{ID: ex.ID, Title: ex.Title.In(p.Lang())}
	if l, ok := s.course.Lesson(ex.Lesson); ok {
		v.Lesson = l.Title.In(p.Lang())
	}
	return v
}

// quizIntro returns what a quiz's task says before its cases: the text of
// task.LANG.md up to the line course.QuizMarker. The cases themselves
// come from the course model (course.QuizCase), and what the task says
// after them tells how to answer in the file, which the page does not
// need. It reports false when the task has no such line.
func (s *Server) quizIntro(ex *course.Exercise, lang string) (template.HTML, bool) {
	task, err := fs.ReadFile(s.course.FS(), path.Join("exercises", ex.ID, "task."+lang+".md"))
	if err != nil {
		return "", false
	}
	before, _, ok := strings.Cut(strings.ReplaceAll(string(task), "\r\n", "\n"), course.QuizMarker)
	if !ok {
		return "", false
	}
	return s.markdown(before), true
}

// markdown renders Markdown from the course, or shows it as text when it
// cannot be rendered.
func (s *Server) markdown(src string) template.HTML {
	html, err := s.md.render(src)
	if err != nil {
		return template.HTML("<p>" + template.HTMLEscapeString(src) + "</p>")
	}
	return html
}

// inline strips the paragraph around a one-paragraph rendering, for use
// inside a label.
func inline(html template.HTML) template.HTML {
	s := strings.TrimSpace(string(html))
	if strings.HasPrefix(s, "<p>") && strings.HasSuffix(s, "</p>") && strings.Count(s, "<p>") == 1 {
		s = s[len("<p>") : len(s)-len("</p>")]
	}
	return template.HTML(s)
}

// quizMarks returns, for a quiz's latest result, "pass" or "fail" per
// case number.
func quizMarks(res *checker.Result) map[int]string {
	marks := map[int]string{}
	if res == nil {
		return marks
	}
	for _, t := range res.Tests {
		f := t.Failure
		if f == nil {
			f = t.Note
		}
		if f == nil || f.Kind != harness.Quiz || f.Case == 0 {
			continue
		}
		switch {
		case t.Status == checker.Pass:
			marks[f.Case] = "pass"
		case f.Given != "":
			marks[f.Case] = "fail"
		}
	}
	return marks
}

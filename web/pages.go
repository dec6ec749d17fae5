package web

import (
	"bytes"
	"compress/gzip"
	"html/template"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/session"
	"github.com/kurs-course/kurs/internal/try"
	"github.com/kurs-course/kurs/internal/workspace"
)

// langCookie names the cookie that remembers the language a reader chose
// with ?lang=, one per port: a browser sends a cookie of 127.0.0.1 to
// every port, and two kurs serve of two workspaces (a German and an
// English one) must not take each other's choice.
func langCookie(r *http.Request) string {
	_, port, err := net.SplitHostPort(r.Host)
	if err != nil || port == "" {
		return "kurs_lang"
	}
	return "kurs_lang_" + port
}

// page is what the layout template needs; Data is the page's own.
type page struct {
	P         *i18n.Printer
	Lang      string
	Title     string
	Token     string
	Instance  string
	SwitchURL string // the same page in the other language
	Other     string // the other language's code
	Exercise  string // the exercise a page shows, for live results
	Editor    bool   // the page edits code: load the editor
	Wide      bool   // the page uses the whole width (the exercise's workplace)
	Data      any
}

// printer returns the reader's language: ?lang=, else the cookie, else
// the server's language. Only a page the reader opens with ?lang= (the
// language switch, an address typed) is remembered in the cookie: the
// page's own requests in the background name the page's language, which
// is no new choice.
func (s *Server) printer(w http.ResponseWriter, r *http.Request) *i18n.Printer {
	if l := r.URL.Query().Get("lang"); i18n.Supported(l) {
		if r.Method == http.MethodGet && !wantsFragment(r) {
			http.SetCookie(w, &http.Cookie{Name: langCookie(r), Value: l, Path: "/", MaxAge: 365 * 24 * 3600,
				HttpOnly: true, SameSite: http.SameSiteStrictMode})
		}
		return s.printers[l]
	}
	if c, err := r.Cookie(langCookie(r)); err == nil && i18n.Supported(c.Value) {
		return s.printers[c.Value]
	}
	return s.printers[s.lang]
}

// newPage fills in what every page has.
func (s *Server) newPage(p *i18n.Printer, r *http.Request, title string, data any) *page {
	other := i18n.Languages[0]
	for _, l := range i18n.Languages {
		if l != p.Lang() {
			other = l
			break
		}
	}
	return &page{P: p, Lang: p.Lang(), Title: title, Token: s.token, Instance: s.instance,
		SwitchURL: r.URL.Path + "?lang=" + other, Other: other, Data: data}
}

// render writes a page, or only one of its templates (a fragment that the
// page's script swaps in). A page is compressed for clients that accept
// gzip; a fragment is not: the page's script asks for it on the same
// machine, after every save, where compressing it costs the server and
// the browser more time than sending it saves.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name, tmpl string, pg *page) {
	var b bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&b, tmpl, pg); err != nil {
		s.logf("web.log.render", "Page", name, "Err", err)
		http.Error(w, pg.P.T("web.error.internal"), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Encoding")
	body := b.Bytes()
	if len(body) >= minCompress && acceptsGzip(r) && !wantsFragment(r) {
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
		_, _ = zw.Write(body)
		_ = zw.Close()
		body = z.Bytes()
		h.Set("Content-Encoding", "gzip")
	}
	// With its length given, an answer larger than the server's buffer
	// goes out whole, not in chunks with an end of its own.
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// logf reports a problem of the server itself to the terminal where kurs
// serve runs, in the server's language; the page only says that something
// went wrong.
func (s *Server) logf(id string, kv ...any) {
	log.Print(s.printers[s.lang].T(id, kv...))
}

// message shows a short localized message as a page, or as plain text to
// a script.
func (s *Server) message(w http.ResponseWriter, r *http.Request, status int, text string) {
	s.messageBack(w, r, status, text, nil)
}

// messageView is what a message page shows: its text, and where to go
// back to besides the overview.
type messageView struct {
	Text string
	Back *link
}

// link is a link on a page.
type link struct{ URL, Label string }

// messageBack is message with a link back to where the reader came from;
// back may be nil.
func (s *Server) messageBack(w http.ResponseWriter, r *http.Request, status int, text string, back *link) {
	p := s.printer(w, r)
	if wantsFragment(r) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(text))
		return
	}
	pg := s.newPage(p, r, "", messageView{Text: text, Back: back})
	// A message page carries no token: it is also what a request that
	// failed the guard gets, and that may come from a rebound name.
	pg.Token, pg.Instance = "", ""
	s.render(w, r, status, "message", "layout", pg)
}

// refuse answers a request the guard turned away, in plain text: it must
// not carry the token, and a script that sent it reads the text.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, id string, kv ...any) {
	p := s.printer(w, r)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(p.T(id, kv...) + "\n"))
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.message(w, r, http.StatusNotFound, s.printer(w, r).T("web.error.not_found", "Path", r.URL.Path))
}

// wantsFragment reports whether the page's script asked for a part of a
// page rather than a whole one.
func wantsFragment(r *http.Request) bool { return r.Header.Get("X-Kurs-Fragment") != "" }

// exerciseView is an exercise in a list, with the learner's progress as
// kurs list shows it.
type exerciseView struct {
	ID, Title string
	State     workspace.State
	Score     int // the best score of any check
	Points    int
}

type lessonView struct {
	ID, Title string
	Minutes   int
	Exercises []exerciseView
}

type overviewData struct {
	Lessons                      []lessonView
	Passed, Total, Score, Points int
	// Continue is the first exercise not passed yet, nil once all are.
	Continue *linkView
}

func (s *Server) exerciseViews(p *i18n.Printer, st *session.Standing, ids func(*course.Exercise) bool) []exerciseView {
	var out []exerciseView
	for _, ex := range s.course.Exercises {
		if !ids(ex) {
			continue
		}
		out = append(out, exerciseView{ID: ex.ID, Title: ex.Title.In(p.Lang()), Points: ex.Points,
			State: st.State(ex), Score: st.Points(ex)})
	}
	return out
}

func (s *Server) overview(w http.ResponseWriter, r *http.Request) {
	p := s.printer(w, r)
	st, err := s.loop.Standing()
	if err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.progress", "Err", err))
		return
	}
	d := &overviewData{}
	for _, l := range s.course.Lessons {
		lv := lessonView{ID: lessonID(l, p.Lang()), Title: l.Title.In(p.Lang()), Minutes: l.Minutes}
		lv.Exercises = s.exerciseViews(p, st, func(ex *course.Exercise) bool { return ex.Lesson == l.ID })
		d.Lessons = append(d.Lessons, lv)
	}
	d.Continue = s.link(p, st.Next(nil, nil))
	t := st.Totals()
	d.Passed, d.Total, d.Score, d.Points = t.Passed, t.Exercises, t.Score, t.Max
	s.render(w, r, http.StatusOK, "overview", "layout", s.newPage(p, r, p.T("web.overview.title"), d))
}

type lessonData struct {
	ID        string
	Body      template.HTML
	Exercises []exerciseView
}

func (s *Server) lesson(w http.ResponseWriter, r *http.Request) {
	p := s.printer(w, r)
	l, ok := s.course.Lesson(r.PathValue("id"))
	if !ok {
		s.notFound(w, r)
		return
	}
	if s.toLessonIn(w, r, l) {
		return
	}
	src, err := l.Markdown(p.Lang())
	if err != nil {
		src, err = l.Markdown("en")
	}
	if err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.lesson", "Err", err))
		return
	}
	body, err := s.md.render(string(src))
	if err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.lesson", "Err", err))
		return
	}
	st, err := s.loop.Standing()
	if err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.progress", "Err", err))
		return
	}
	d := &lessonData{ID: l.ID, Body: body,
		Exercises: s.exerciseViews(p, st, func(ex *course.Exercise) bool { return ex.Lesson == l.ID })}
	pg := s.newPage(p, r, l.Title.In(p.Lang()), d)
	// The other language's page has the lesson's id in that language.
	pg.SwitchURL = "/lesson/" + lessonID(l, pg.Other) + "/?lang=" + pg.Other
	s.render(w, r, http.StatusOK, "lesson", "layout", pg)
}

// toLessonIn redirects a request for lesson l by its id in another
// language than the learner's (chosen in the page, else the workspace's)
// to its address in the learner's language, and reports whether it did: a
// lesson's address names its language, and the page's text follows the
// learner. An address with ?lang= is a choice of its own and is served as
// asked.
func (s *Server) toLessonIn(w http.ResponseWriter, r *http.Request, l *course.Lesson) bool {
	if r.URL.Query().Has("lang") {
		return false
	}
	id := lessonID(l, s.printer(w, r).Lang())
	if r.PathValue("id") == id {
		return false
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Add("Vary", "Cookie")
	http.Redirect(w, r, "/lesson/"+url.PathEscape(id)+"/", http.StatusFound)
	return true
}

// lessonID returns the id by which a page in lang links lesson l: its id in
// that language (fault-tolerance in English), else its folder's.
func lessonID(l *course.Lesson, lang string) string {
	if id := l.IDs[lang]; id != "" {
		return id
	}
	return l.ID
}

// figureTypes are the files a lesson may show next to its text.
var figureTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".svg": "image/svg+xml", ".webp": "image/webp",
}

// lessonFile serves a figure from the lesson's folder in the course, and
// nothing else: no Markdown, no JSON, no file outside that folder.
func (s *Server) lessonFile(w http.ResponseWriter, r *http.Request) {
	l, ok := s.course.Lesson(r.PathValue("id"))
	name := r.PathValue("file")
	ct, figure := figureTypes[strings.ToLower(path.Ext(name))]
	if !ok || !figure || !fs.ValidPath(name) || strings.Contains(name, "/") || strings.HasPrefix(name, ".") {
		s.notFound(w, r)
		return
	}
	data, err := fs.ReadFile(s.course.FS(), path.Join("lessons", l.ID, name))
	if err != nil {
		s.notFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(data)
}

// fileView is one of the learner's files.
type fileView struct {
	Rel, Abs string
	Code     template.HTML
}

type hintView struct {
	Seen  []template.HTML
	Total int
	Next  int // the number of the next hint, 0 when all are seen
}

type quizCaseView struct {
	Case     int
	Label    string // "Case 1", the legend
	Question template.HTML
	Options  []optionView
	Chosen   string
	Mark     string // pass or fail in the latest result, else empty
}

type optionView struct {
	Letter string
	Text   template.HTML
}

type exerciseData struct {
	ID, Title   string
	Lesson      string
	LessonTitle string
	Summary     template.HTML
	Dir         string
	Files       []fileView
	Code        []codeFile
	Mark        codeMark
	Points      int
	// Scoring states how the exercise earns its points, as kurs check
	// does.
	Scoring     string
	Quiz        []quizCaseView
	QuizProblem string
	Hints       hintView
	Passed      bool
	Notice      string
	Result      *resultView
	// Try is the "Try a trace" panel; nil for a quiz, which has no calls.
	Try *tryView
	// Next is the exercise after this one, nil after the last.
	Next *linkView
}

// exercise looks up the exercise of a request; it answers 404 itself.
func (s *Server) exerciseOf(w http.ResponseWriter, r *http.Request) (*course.Exercise, bool) {
	ex, ok := s.course.Exercise(r.PathValue("id"))
	if !ok {
		s.notFound(w, r)
	}
	return ex, ok
}

func (s *Server) exercise(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exerciseOf(w, r)
	if !ok {
		return
	}
	notice := s.notice(r, ex)
	s.renderExercise(w, r, ex, http.StatusOK, "layout", func(_ *i18n.Printer, d *exerciseData) { d.Notice = notice })
}

// renderExercise writes the exercise page (tmpl "layout") or one of its
// fragments, with the page's data as exerciseData makes it and then fill
// changes it (fill may be nil).
func (s *Server) renderExercise(w http.ResponseWriter, r *http.Request, ex *course.Exercise, status int, tmpl string, fill func(*i18n.Printer, *exerciseData)) {
	p := s.printer(w, r)
	// The result alone, which the page fetches after every check, needs
	// no task, hints or highlighted code.
	d, err := s.exerciseData(p, ex, tmpl != "result")
	if err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.progress", "Err", err))
		return
	}
	if fill != nil {
		fill(p, d)
	}
	pg := s.newPage(p, r, d.Title, d)
	if tmpl == "layout" {
		pg.Exercise = ex.ID
		pg.Wide = true
		pg.Editor = ex.Traits().Editor
	}
	s.render(w, r, status, "exercise", tmpl, pg)
}

// notice returns the message a redirect after a form (no script) carries.
func (s *Server) notice(r *http.Request, ex *course.Exercise) string {
	p := s.printers[s.lang]
	if c, err := r.Cookie(langCookie(r)); err == nil && i18n.Supported(c.Value) {
		p = s.printers[c.Value]
	}
	return doneNotice(p, r.URL.Query().Get("done"), ex)
}

// doneNotice returns the message after a form on the page of ex, by what
// it did.
func doneNotice(p *i18n.Printer, done string, ex *course.Exercise) string {
	switch done {
	case "answer":
		return p.T("web.quiz.done")
	case "saved":
		return p.T("web.editor.saved", "Exercise", ex.ID)
	case "unchanged":
		return p.T("web.editor.unchanged")
	case "reset":
		return p.T("web.reset.done_short")
	case "reset_same":
		return p.T("web.reset.same")
	}
	return ""
}

func (s *Server) exerciseData(p *i18n.Printer, ex *course.Exercise, full bool) (*exerciseData, error) {
	st, err := s.loop.Standing()
	if err != nil {
		return nil, err
	}
	var summary template.HTML
	if full {
		if summary, err = s.md.render(ex.Summary.In(p.Lang())); err != nil {
			return nil, err
		}
	}
	d := &exerciseData{
		ID: ex.ID, Title: ex.Title.In(p.Lang()), Lesson: ex.Lesson, Summary: summary,
		Dir: s.ws.ExerciseDir(ex.ID), Points: ex.Points, Passed: st.SolutionOpen(ex),
		Scoring: explain.Scoring(p, ex),
	}
	if l, ok := s.course.Lesson(ex.Lesson); ok {
		d.Lesson, d.LessonTitle = lessonID(l, p.Lang()), l.Title.In(p.Lang())
	}
	files, _ := checker.ReadSources(d.Dir, ex.ID)
	for _, f := range files {
		d.Files = append(d.Files, fileView{Rel: f, Abs: filepath.Join(s.ws.Dir, filepath.FromSlash(f))})
	}
	if len(d.Files) == 0 {
		// No file yet: show where the skeleton goes.
		if sk, err := ex.Skeleton(p.Lang()); err == nil && len(sk) > 0 {
			rel := path.Join(ex.ID, sk[0].Name)
			d.Files = append(d.Files, fileView{Rel: rel, Abs: filepath.Join(s.ws.Dir, filepath.FromSlash(rel))})
		}
	}
	last, _ := s.loop.Last(ex.ID)
	res := last.Result
	if !full {
		// What the result shows of the rest: the line it marks, each
		// case's mark and the versions of the files it checked.
		if ex.Traits().Answers {
			marks := quizMarks(res)
			for _, c := range ex.Quiz {
				d.Quiz = append(d.Quiz, quizCaseView{Case: c.Case, Mark: marks[c.Case]})
			}
		} else {
			d.Code = s.codeSums(p, ex)
			d.Mark = markOf(res, d.Code)
		}
		d.Result = s.resultView(p, ex)
		d.Next = s.link(p, st.Next(nil, ex))
		return d, nil
	}
	d.Hints = s.hints(st.SeenHints(ex, p.Lang()))
	if ex.Traits().Answers {
		chosen, qerr := s.currentAnswers(ex)
		if qerr != nil {
			d.QuizProblem = quizProblem(p, qerr)
		}
		if intro, ok := s.quizIntro(ex, p.Lang()); ok {
			d.Summary = intro
		}
		marks := quizMarks(res)
		for i, c := range ex.Quiz {
			v := quizCaseView{Case: c.Case, Label: c.Label.In(p.Lang()), Mark: marks[c.Case]}
			v.Question = s.markdown(c.Question.In(p.Lang()))
			for _, o := range c.Letters() {
				v.Options = append(v.Options, optionView{Letter: o, Text: inline(s.markdown(c.Choices[o].In(p.Lang())))})
			}
			if i < len(chosen) {
				v.Chosen = chosen[i]
			}
			d.Quiz = append(d.Quiz, v)
		}
	} else {
		files := s.codeSums(p, ex)
		d.Mark = markOf(res, files)
		d.Code = highlighted(files, d.Mark)
	}
	d.Result = s.resultView(p, ex)
	if try.Supported(ex) {
		d.Try = &tryView{Trace: try.Example(ex), Example: try.ShortExample(ex)}
	}
	d.Next = s.link(p, st.Next(nil, ex))
	return d, nil
}

// hints returns the view of the hints seen so far, of total. Hints are
// Markdown (they quote code with backticks).
func (s *Server) hints(seen []string, total int) hintView {
	v := hintView{Total: total}
	for _, h := range seen {
		html, err := s.md.render(h)
		if err != nil {
			html = template.HTML(template.HTMLEscapeString(h))
		}
		v.Seen = append(v.Seen, html)
	}
	if len(seen) < total {
		v.Next = len(seen) + 1
	}
	return v
}

func (s *Server) resultFragment(w http.ResponseWriter, r *http.Request) {
	if ex, ok := s.exerciseOf(w, r); ok {
		s.renderExercise(w, r, ex, http.StatusOK, "result", nil)
	}
}

// resultHTML renders the result fragment of ex in p's language, as
// resultFragment answers it, for the events stream, and returns the
// number of the result it shows (0 before the first check).
func (s *Server) resultHTML(p *i18n.Printer, r *http.Request, ex *course.Exercise) ([]byte, int, error) {
	d, err := s.exerciseData(p, ex, false)
	if err != nil {
		return nil, 0, err
	}
	var b bytes.Buffer
	if err := s.pages["exercise"].ExecuteTemplate(&b, "result", s.newPage(p, r, d.Title, d)); err != nil {
		return nil, 0, err
	}
	seq := 0
	if d.Result != nil {
		seq = d.Result.Seq
	}
	return b.Bytes(), seq, nil
}

type solutionData struct {
	ID, Title string
	Mine      []fileView
	Reference []fileView
}

// solution shows the reference beside the learner's own files, once the
// exercise has passed.
func (s *Server) solution(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exerciseOf(w, r)
	if !ok {
		return
	}
	p := s.printer(w, r)
	st, err := s.loop.Standing()
	if err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.progress", "Err", err))
		return
	}
	if !st.SolutionOpen(ex) {
		s.message(w, r, http.StatusForbidden, p.T("web.solution.locked", "Exercise", ex.Title.In(p.Lang())))
		return
	}
	d := &solutionData{ID: ex.ID, Title: ex.Title.In(p.Lang())}
	files, _ := checker.ReadSources(s.ws.ExerciseDir(ex.ID), ex.ID)
	var mine [][]byte
	var mineNames []string
	for _, f := range files {
		data, err := s.ws.ReadFile(f)
		if err != nil {
			continue
		}
		mine, mineNames = append(mine, data), append(mineNames, f)
	}
	ref, err := ex.Solution()
	if err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.solution", "Err", err))
		return
	}
	// The differences are marked on both sides: each file of the learner
	// against the reference file of the same name, or the only one.
	counterpart := func(name string) []byte {
		for _, f := range ref {
			if f.Name == path.Base(name) {
				return f.Data
			}
		}
		if len(ref) == 1 {
			return ref[0].Data
		}
		return nil
	}
	refMarks := map[string][][2]int{}
	for i, data := range mine {
		other := counterpart(mineNames[i])
		inMine, inRef := changedLines(string(data), string(other))
		if other != nil {
			for _, f := range ref {
				if bytes.Equal(f.Data, other) {
					refMarks[f.Name] = inRef
				}
			}
		}
		code, err := highlightGoLines(data, inMine)
		if err != nil {
			continue
		}
		d.Mine = append(d.Mine, fileView{Rel: mineNames[i], Code: code})
	}
	for _, f := range ref {
		code, err := highlightGoLines(f.Data, refMarks[f.Name])
		if err != nil {
			continue
		}
		d.Reference = append(d.Reference, fileView{Rel: f.Name, Code: code})
	}
	s.render(w, r, http.StatusOK, "solution", "layout", s.newPage(p, r, p.T("web.solution.title", "Exercise", d.Title), d))
}

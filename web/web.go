// Package web serves a course in the learner's browser, as `kurs serve`
// does: the overview with progress, each lesson, each exercise as a place
// to work (the task beside the learner's file in an editor, a check
// button, results that update when the file is saved, in the page or in
// any editor, hints), the quiz and, once passed, the solution.
//
// Everything the pages need is embedded (templates, styles, scripts, the
// editor and the lessons' diagrams, drawn as SVG), so the UI works without
// a network. The server is meant
// for one learner on their own machine: it binds to loopback by default,
// refuses requests for other host names (DNS rebinding), answers only the
// browser that opened its secret address (LoginURL), and accepts a
// state-changing request only with its per-process token and from its own
// origin. It reads and writes nothing but the workspace's exercise files
// and progress, and the course.
//
// It does not check code itself (see the checker package) and does not
// notice saves by itself: a Watcher tells it which exercise changed.
package web

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/session"
	"github.com/kurs-course/kurs/internal/workspace"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// Watcher reports which exercise's files were saved; package watch
// provides one.
type Watcher interface {
	// Changes delivers an exercise id once per burst of saves.
	Changes() <-chan string
	// Close stops watching.
	Close() error
}

// Options configure a Server.
type Options struct {
	Workspace *workspace.Workspace
	Course    *course.Course
	// Checker checks exercises; nil means one with the default limits.
	Checker *checker.Checker
	// Lang is the language of readers who have not chosen one.
	Lang string
	// Watcher, if set, makes results follow saves; without it they
	// change only when the learner presses Check. The Server closes it.
	Watcher Watcher
	// Key is the secret that the address of the UI carries (LoginURL);
	// whoever opens that address gets the session cookie. Empty means a
	// new random key. kurs serve keeps one in the user's cache, so that a
	// restarted server knows the browsers that logged in before.
	Key string
}

// Server is the web UI of one workspace. Build it with New and run it with
// Serve.
type Server struct {
	ws      *workspace.Workspace
	course  *course.Course
	ck      *checker.Checker
	loop    *session.Session // checks, records and keeps the last results
	lang    string
	watcher Watcher

	md     *markdown
	pages  map[string]*template.Template
	assets *assetTable
	// key logs a browser in (guard.go); token authorizes state-changing
	// requests; instance tells pages that the server was restarted (and
	// its token changed).
	key, token, instance string
	printers             map[string]*i18n.Printer
	hub                  hub
	streams              atomic.Int64 // events streams opened, which names each

	// ctx ends when Serve returns (stop); background checks run under it.
	ctx   context.Context
	stop  context.CancelFunc
	hosts hosts

	exercises map[string]*exState
	// background counts the checks that saves started.
	background sync.WaitGroup
	// checked, when set, is told that a check a save started has ended,
	// before the pages are told: a test holds it there to save again.
	// Tests only.
	checked func(id string)
}

// New returns a Server for the workspace and course in opt.
func New(opt Options) (*Server, error) {
	if opt.Workspace == nil || opt.Course == nil {
		return nil, errors.New("web: a workspace and a course are needed")
	}
	s := &Server{
		ws:        opt.Workspace,
		course:    opt.Course,
		ck:        opt.Checker,
		lang:      opt.Lang,
		watcher:   opt.Watcher,
		md:        newMarkdown(),
		pages:     map[string]*template.Template{},
		printers:  map[string]*i18n.Printer{},
		exercises: map[string]*exState{},
		hub:       hub{subs: map[chan event]struct{}{}},
	}
	s.ctx, s.stop = context.WithCancel(context.Background())
	if s.ck == nil {
		s.ck = &checker.Checker{}
	}
	s.loop = session.New(s.ws, s.course, s.ck)
	if !i18n.Supported(s.lang) {
		s.lang = i18n.Languages[0]
	}
	for _, l := range i18n.Languages {
		s.printers[l] = i18n.New(l)
	}
	for _, ex := range s.course.Exercises {
		s.exercises[ex.ID] = &exState{}
	}
	var err error
	s.key = opt.Key
	if s.key == "" {
		if s.key, err = random(); err != nil {
			return nil, err
		}
	}
	if s.token, err = random(); err != nil {
		return nil, err
	}
	if s.instance, err = random(); err != nil {
		return nil, err
	}
	if s.assets, err = loadAssets(); err != nil {
		return nil, err
	}
	for _, page := range []string{"overview", "lesson", "exercise", "solution", "message"} {
		t, err := template.New(page).Funcs(funcs).Funcs(template.FuncMap{"asset": s.assets.url}).ParseFS(templateFS, "templates/layout.html", "templates/parts.html", "templates/"+page+".html")
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", page, err)
		}
		s.pages[page] = t
	}
	return s, nil
}

// funcs are the templates' helpers.
var funcs = template.FuncMap{
	// list bundles a printer and exercises for the exercise-list template.
	"list": func(p *i18n.Printer, l []exerciseView) any {
		return struct {
			P    *i18n.Printer
			List []exerciseView
		}{p, l}
	},
}

// random returns 128 random bits in hex.
func random() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// LoginURL returns the address at which the owner opens the UI served on
// addr: the overview, with the secret key that logs the browser in. A
// server on every interface (0.0.0.0 or ::) is named by the loopback
// address, which the owner's browser can open and the server answers to;
// "http://[::]:8080" is no address a browser can go to.
func (s *Server) LoginURL(addr net.Addr) string {
	host := addr.String()
	if tcp, ok := addr.(*net.TCPAddr); ok && (tcp.IP == nil || tcp.IP.IsUnspecified()) {
		host = net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
	}
	return "http://" + host + "/?" + KeyParam + "=" + s.key
}

// Serve serves the UI on ln until ctx ends, then stops within a few
// seconds: it closes ln and the Watcher and waits for the checks that
// saves started. Only requests for ln's own address get an answer. A
// Server serves once.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.hosts = newHosts(ln.Addr())
	following := make(chan struct{})
	if s.watcher != nil {
		go func() {
			defer close(following)
			s.follow(ctx)
		}()
	} else {
		close(following)
	}
	// On the way out: no more saves to follow, and no check left running
	// in the workspace once Serve returns.
	defer func() {
		cancel()
		s.stop()
		if s.watcher != nil {
			s.watcher.Close()
		}
		<-following
		s.background.Wait()
	}()
	srv := &http.Server{
		Handler:           s.handler(),
		ReadHeaderTimeout: 10 * time.Second,
		// Requests, and the event streams with them, end with ctx: an open
		// stream would otherwise hold Shutdown up.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stop, cancelStop := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancelStop()
	if err := srv.Shutdown(stop); err != nil {
		srv.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// follow checks an exercise each time the Watcher reports a save.
func (s *Server) follow(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case id, ok := <-s.watcher.Changes():
			if !ok {
				return
			}
			if ex, found := s.course.Exercise(id); found {
				s.recheck(ex)
			}
		}
	}
}

// handler routes requests; every one passes the guard first.
func (s *Server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.overview)
	// A lesson's address ends in a slash, so that its figures, linked
	// relative to the Markdown file, are found next to it.
	mux.HandleFunc("GET /lesson/{id}", func(w http.ResponseWriter, r *http.Request) {
		l, ok := s.course.Lesson(r.PathValue("id"))
		if !ok {
			s.notFound(w, r)
			return
		}
		if s.toLessonIn(w, r, l) {
			return
		}
		u := *r.URL
		u.Path += "/"
		http.Redirect(w, r, u.String(), http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /lesson/{id}/{$}", s.lesson)
	mux.HandleFunc("GET /lesson/{id}/{file}", s.lessonFile)
	mux.HandleFunc("GET /exercise/{id}", s.exercise)
	mux.HandleFunc("GET /exercise/{id}/result", s.resultFragment)
	mux.HandleFunc("GET /exercise/{id}/solution", s.solution)
	mux.HandleFunc("POST /exercise/{id}/check", s.check)
	mux.HandleFunc("POST /exercise/{id}/hint", s.hint)
	mux.HandleFunc("POST /exercise/{id}/answer", s.answer)
	mux.HandleFunc("POST /exercise/{id}/reset", s.reset)
	mux.HandleFunc("POST /exercise/{id}/save", s.save)
	mux.HandleFunc("POST /exercise/{id}/try", s.tryTrace)
	mux.HandleFunc("GET /exercise/{id}/files", s.filesJSON)
	mux.HandleFunc("GET /events", s.events)
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", s.assets))
	// Browsers ask for /favicon.ico unless a page names its icon; pages
	// do, but a message in plain text does not.
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		s.assets.byName["favicon.svg"].serve(w, r, false)
	})
	// An address the server has, asked with another method (a form's
	// address typed into the browser), is 405 with the methods it takes.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if allow := allowedMethods(mux, r); allow != "" {
			w.Header().Set("Allow", allow)
			p := s.printer(w, r)
			// A form's address of an exercise, reloaded or typed in: the
			// learner wants the exercise back, not a lesson in HTTP.
			if rest, ok := strings.CutPrefix(r.URL.Path, "/exercise/"); ok {
				id, _, _ := strings.Cut(rest, "/")
				if ex, found := s.course.Exercise(id); found {
					s.messageBack(w, r, http.StatusMethodNotAllowed, p.T("web.error.form"),
						&link{URL: "/exercise/" + ex.ID, Label: p.T("web.back.exercise", "Exercise", ex.Title.In(p.Lang()))})
					return
				}
			}
			s.message(w, r, http.StatusMethodNotAllowed, p.T("web.error.method",
				"Path", r.URL.Path, "Method", r.Method, "Allow", allow))
			return
		}
		s.notFound(w, r)
	})
	return s.guard(mux)
}

// allowedMethods returns the methods, comma-separated, by which mux
// answers the path of r other than by its catch-all "/"; "" when none.
func allowedMethods(mux *http.ServeMux, r *http.Request) string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost} {
		other := *r
		other.Method = m
		if _, pattern := mux.Handler(&other); pattern != "" && pattern != "/" {
			allow = append(allow, m)
		}
	}
	return strings.Join(allow, ", ")
}

package cli

import (
	"errors"
	"flag"
	"net"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/watch"
	"github.com/kurs-course/kurs/web"
)

// DefaultServeAddr is where kurs serve listens unless --addr says
// otherwise: loopback only, on a port few other tools use.
const DefaultServeAddr = "127.0.0.1:8421"

// serveOptions are the options of kurs serve.
type serveOptions struct {
	addr      string        // where to listen
	poll      time.Duration // look for changes this often instead of waiting for events
	noBrowser bool          // do not open the browser
}

func serveVerb() *verb {
	return command("serve", func(o *serveOptions, fs *flag.FlagSet) {
		fs.StringVar(&o.addr, "addr", DefaultServeAddr, "")
		fs.DurationVar(&o.poll, "poll", 0, "")
		fs.BoolVar(&o.noBrowser, "no-browser", false, "")
	}, serve)
}

// serve shows the course in the browser until the context ends.
func serve(e *env, o *serveOptions, args []string) error {
	addr, poll := o.addr, o.poll
	if len(args) != 0 {
		return e.usageErr("error.no_args", "Verb", "serve")
	}
	ws, c, err := e.openCourse()
	if err != nil {
		return err
	}
	if exposed(addr) {
		e.sayErr("web.serve.exposed", "Addr", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return e.usageErr("web.serve.listen", "Addr", addr, "Err", err)
	}
	ids := make([]string, len(c.Exercises))
	for i, ex := range c.Exercises {
		ids[i] = ex.ID
	}
	opt := web.Options{Workspace: ws, Course: c, Checker: &checker.Checker{Build: e.builder(), Reuse: true}, Lang: e.p.Lang()}
	// The key of the address is kept in the cache, so that the browser
	// stays logged in when the server is started again. Without a cache
	// the server makes a key of its own; a restart then needs the new
	// address.
	if b := e.builder(); b != nil {
		if key, kerr := b.Secret("serve-key"); kerr == nil {
			opt.Key = key
		}
	}
	// Without a watcher the UI still works; results then change only
	// when the learner presses Check.
	if w, werr := watch.New(ws.Dir, ids, watch.Options{Poll: poll}); werr != nil {
		e.sayErr("web.serve.no_watch", "Err", werr)
	} else {
		opt.Watcher = w
	}
	srv, err := web.New(opt)
	if err != nil {
		ln.Close()
		if opt.Watcher != nil {
			opt.Watcher.Close()
		}
		return err
	}
	login := srv.LoginURL(ln.Addr())
	// The browser is asked first, so that the address is the last line
	// either way. KURS_NO_BROWSER keeps tests and scripts from opening one.
	opened := false
	if !o.noBrowser && e.Getenv("KURS_NO_BROWSER") == "" && hasDisplay(e.Getenv) {
		// An opener that starts can still fail (xdg-open without a
		// browser exits 4): that is said when it ends, as the address
		// alone would leave the learner waiting for a window.
		cleanup, berr := openBrowser(e, login, func(err error) {
			e.sayErr("web.serve.browser_failed", "Err", err)
		})
		defer cleanup()
		if berr != nil {
			e.sayErr("web.serve.no_browser", "Err", berr)
		} else {
			opened = true
		}
	}
	if opened {
		e.say("web.serve.opened", "URL", login)
	} else {
		e.say("web.serve.open", "URL", login)
	}
	if err := srv.Serve(e.ctx, ln); err != nil && !errors.Is(err, net.ErrClosed) {
		return &usageError{e.p.T("web.serve.failed", "Err", err)}
	}
	e.say("web.serve.stopped")
	return nil
}

// exposed reports whether addr may be reachable from other computers:
// anything but a loopback address or localhost.
func exposed(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return true
	}
	if host == "localhost" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

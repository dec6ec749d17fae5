package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/session"
	"github.com/kurs-course/kurs/internal/termdoc"
	"github.com/kurs-course/kurs/internal/watch"
	"github.com/kurs-course/kurs/internal/workspace"
)

// pollFlag is --poll: alone it polls at watch.DefaultPoll, --poll=2s at the
// interval given. It is a boolean flag to the flag package, so that
// "--poll" needs no value.
type pollFlag time.Duration

func (p *pollFlag) String() string { return time.Duration(*p).String() }

func (p *pollFlag) Set(s string) error {
	switch s {
	case "true":
		*p = pollFlag(watch.DefaultPoll)
	case "false":
		*p = 0
	default:
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return errors.New("not a duration such as 500ms")
		}
		*p = pollFlag(d)
	}
	return nil
}

func (p *pollFlag) IsBoolFlag() bool { return true }

// Get returns the interval, for flag.Getter.
func (p *pollFlag) Get() any { return time.Duration(*p) }

// watchOptions are the options of kurs watch: those of check, and how to
// look for changes.
type watchOptions struct {
	checkFlags
	poll pollFlag
}

func watchVerb() *verb {
	return command("watch", func(o *watchOptions, fs *flag.FlagSet) {
		o.checkFlags.register(fs)
		fs.Var(&o.poll, "poll", "")
	}, watchExercises)
}

// watchExercises checks the named exercises (all when none is named) each
// time the learner saves one, until the learner quits.
func watchExercises(e *env, o *watchOptions, args []string) error {
	f, poll := &o.checkFlags, o.poll
	ws, c, exs, err := e.open(args)
	if err != nil {
		return err
	}
	ids := make([]string, len(exs))
	for i, ex := range exs {
		ids[i] = ex.ID
	}
	w, err := watch.New(ws.Dir, ids, watch.Options{Poll: time.Duration(poll)})
	if err != nil {
		return err
	}
	defer w.Close()

	s := &watchRun{
		e: e, ws: ws, course: c, exs: exs, w: w, out: e.Out, scr: e.screen(),
		verbose: f.verbose,
	}
	// A stage that takes a while (the first race build) is said on the
	// screen of the check, which the result then replaces.
	s.loop = session.New(ws, c, &checker.Checker{Build: e.builder(), Seed: f.seed, Timeout: f.timeout, Reuse: true,
		Progress: func(id string, st checker.Stage) {
			fmt.Fprintln(s.out, s.scr.fit(e.p.T("check.stage."+string(st), "Exercise", id)))
		}})
	in := e.In
	if in == nil {
		in = strings.NewReader("")
	}
	raw := false
	// Single keys need raw mode, which only a terminal has.
	if fd, ok := terminal(in); ok {
		if old, err := term.MakeRaw(fd); err == nil {
			raw, s.raw = true, true
			defer term.Restore(fd, old)
			if s.scr.tty {
				// Raw mode also stops the terminal from turning "\n"
				// into a new line at its start.
				s.out = crlf{e.Out}
			}
		}
	}
	done := make(chan struct{})
	defer close(done)
	s.keys = readKeys(in, raw, done)
	s.focus = s.start()
	// Ctrl-C, the usual way out, ends e.ctx (see Run), or comes as a
	// key in raw mode: either way watch ends cleanly, with the
	// terminal restored and no check left running.
	s.run(e.ctx)
	s.bye()
	return nil
}

// watchRun is one run of kurs watch: what it shows, and what it waits for.
type watchRun struct {
	e       *env
	ws      *workspace.Workspace
	course  *course.Course
	exs     []*course.Exercise // the watched exercises
	w       *watch.Watcher
	loop    *session.Session
	verbose bool
	out     io.Writer
	scr     screen
	focus   *course.Exercise // the exercise the learner works on
	keys    <-chan byte      // nil once the input has ended
	queued  []byte           // keys pressed during a check, in order
	saved   []string         // saves reported during a check, to check next
	owed    map[string]bool  // first passes not shown yet (their check was superseded)
	raw     bool             // keys come from a terminal in raw mode
}

// Keys that end watch: q, and Ctrl-C and Ctrl-D in raw mode, where the
// terminal sends them as bytes instead of signals.
func quits(k byte) bool { return k == 'q' || k == 3 || k == 4 }

// start returns the exercise to begin with: the first one watched that
// has not passed yet, else the first one watched.
func (s *watchRun) start() *course.Exercise {
	if next := s.next(nil); next != nil {
		return next
	}
	return s.exs[0]
}

// run checks the exercise in focus, then reacts to saves and keys until
// the learner quits or the context ends.
func (s *watchRun) run(ctx context.Context) {
	// An exercise the learner has not begun is not checked: its task is
	// what helps now, and its progress stays "not started".
	if s.checkBegun(ctx, []*course.Exercise{s.focus}, false) {
		return
	}
	for {
		var k byte
		if len(s.queued) > 0 {
			k, s.queued = s.queued[0], s.queued[1:]
		} else if len(s.saved) > 0 {
			var id string
			id, s.saved = s.saved[0], s.saved[1:]
			if s.saveChecked(ctx, id) {
				return
			}
			continue
		} else {
			select {
			case <-ctx.Done():
				return
			case id, ok := <-s.w.Changes():
				if !ok {
					return
				}
				if s.saveChecked(ctx, id) {
					return
				}
				continue
			case key, ok := <-s.keys:
				if !ok {
					s.keys = nil // no more input: watch on until q or Ctrl-C
					continue
				}
				k = key
			}
		}
		if k >= 'A' && k <= 'Z' {
			k += 'a' - 'A'
		}
		if quits(k) {
			return
		}
		if s.key(ctx, k) {
			return
		}
	}
}

// saveChecked checks the exercise id after the learner saved it, and
// reports whether watch should end.
func (s *watchRun) saveChecked(ctx context.Context, id string) bool {
	ex, found := s.course.Exercise(id)
	if !found {
		return false
	}
	// The learner is working on the exercise they saved.
	s.focus = ex
	return s.checkAndShow(ctx, []*course.Exercise{ex})
}

// superseded reports whether the learner saved id again while it was
// checked. The check of the newer save follows at once, so this result,
// of files no longer there, would only flash by, with a list below it
// that already disagrees. Saves of other exercises wait their turn.
func (s *watchRun) superseded(id string) bool {
	again := false
	for {
		select {
		case got, ok := <-s.w.Changes():
			if !ok {
				return again
			}
			if got == id {
				again = true
			} else if !slices.Contains(s.saved, got) {
				s.saved = append(s.saved, got)
			}
		default:
			return again
		}
	}
}

// key handles one key other than quit; it reports whether watch should end.
func (s *watchRun) key(ctx context.Context, k byte) bool {
	switch k {
	case 'h':
		s.show(s.hint())
	case 'l':
		s.show(s.list())
	case 'n':
		if next := s.next(s.focus); next != nil {
			s.focus = next
		} else {
			s.focus = s.after(s.focus)
		}
		s.show(s.task())
	case 'c':
		return s.checkBegun(ctx, s.exs, true)
	default:
		if k <= ' ' {
			return false // Enter, space and other keys that say nothing
		}
		fmt.Fprintln(s.out, s.scr.fit(s.e.p.T("watch.unknown_key", "Key", string(rune(k)))))
	}
	return false
}

// checkBegun checks those of exs the learner has begun, or, when there
// are none, shows the task in focus (all says the learner asked for every
// exercise watched). It reports whether watch should end.
func (s *watchRun) checkBegun(ctx context.Context, exs []*course.Exercise, all bool) bool {
	todo, _, err := s.loop.Select(exs, false)
	if err != nil {
		s.show(s.e.p.T("watch.check_error", "Err", err))
		return false
	}
	if len(todo) == 0 {
		body := s.task()
		if all {
			body = s.e.p.T("watch.nothing_begun") + "\n\n" + body
		}
		s.show(body)
		return false
	}
	if all {
		fmt.Fprintln(s.out, s.scr.fit(s.e.p.T("watch.checking_all")))
	}
	return s.checkAndShow(ctx, todo)
}

// checkAndShow checks exs, records the results and shows them. Keys
// pressed meanwhile wait, except those that quit, which stop the check. It
// reports whether watch should end.
func (s *watchRun) checkAndShow(ctx context.Context, exs []*course.Exercise) bool {
	var outs []session.Outcome
	var err error
	for {
		if len(exs) == 1 {
			fmt.Fprintln(s.out, s.scr.fit(s.e.p.T("watch.checking", "Exercise", exs[0].ID)))
		}
		var quit bool
		outs, quit, err = s.check(ctx, exs)
		if quit || ctx.Err() != nil {
			return true
		}
		// A superseded result is recorded but not shown: the screen
		// goes on to the check of the newer save. A first pass in it is
		// celebrated when the exercise is next shown passing.
		if len(exs) != 1 || !s.superseded(exs[0].ID) {
			break
		}
		for _, o := range outs {
			if o.FirstPass {
				if s.owed == nil {
					s.owed = map[string]bool{}
				}
				s.owed[o.Exercise.ID] = true
			}
		}
	}
	var rec *session.RecordError
	switch {
	case errors.As(err, &rec):
		fmt.Fprintln(s.e.Err, s.e.p.T("error.progress", "Err", rec.Err))
	case err != nil:
		s.show(s.e.p.T("watch.check_error", "Err", err))
		return false
	}
	graded := gradedOf(outs)
	var b strings.Builder
	_ = explain.WriteText(&b, s.e.p, graded, explain.TextOptions{Verbose: s.verbose, Color: s.scr.color, Width: s.scr.wrap()})
	focusPassed, celebrated := false, false
	for _, o := range outs {
		if o.Result.Status != checker.Pass {
			continue
		}
		focusPassed = focusPassed || o.Exercise == s.focus
		// Celebrated once: the first time an exercise passes.
		if o.FirstPass || s.owed[o.Exercise.ID] {
			delete(s.owed, o.Exercise.ID)
			b.WriteString("\n" + s.e.p.T("watch.passed_first", "Exercise", o.Exercise.ID) + "\n")
			celebrated = true
		}
	}
	if focusPassed {
		if !celebrated {
			b.WriteString("\n")
		}
		// Offer the next exercise; moving there is the learner's choice.
		switch next := s.next(s.focus); {
		case next != nil:
			b.WriteString(s.e.p.T("watch.next", "Exercise", next.ID, "Title", next.Title.In(s.e.p.Lang())) + "\n")
		case s.allPassed():
			b.WriteString(s.e.p.T("watch.all_done") + "\n")
		default:
			b.WriteString(s.e.p.T("watch.watched_done") + "\n")
		}
	}
	s.show(b.String())
	return false
}

// check runs the session's check of exs in the background, so that q and
// Ctrl-C stop even a check of code that hangs. Keys read as lines (a pipe,
// a script) keep their order instead: q then waits its turn, and Ctrl-C
// is a signal that ends ctx.
func (s *watchRun) check(ctx context.Context, exs []*course.Exercise) (outs []session.Outcome, quit bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		outs []session.Outcome
		err  error
	}
	done := make(chan result, 1)
	go func() {
		outs, err := s.loop.Check(ctx, exs)
		done <- result{outs, err}
	}()
	for {
		select {
		case r := <-done:
			return r.outs, false, r.err
		case k, ok := <-s.keys:
			if !ok {
				s.keys = nil
				continue
			}
			if s.raw && quits(k) {
				cancel()
				<-done // the checker has ended the test program
				return nil, true, nil
			}
			s.queued = append(s.queued, k)
		}
	}
}

// show draws a screen: the exercise in focus, body, and the progress across
// the course with the keys. A terminal is cleared first; elsewhere a rule
// separates the screens, so that a log stays readable.
func (s *watchRun) show(body string) {
	var b strings.Builder
	// The window may have been resized since the last screen.
	s.scr = s.e.screen()
	if s.scr.tty {
		b.WriteString(s.scr.t.Clear())
	} else {
		b.WriteString(strings.Repeat("─", min(s.scr.width, 72)) + "\n")
	}
	b.WriteString(s.e.p.T("watch.header", "Exercise", s.focus.ID, "Title", s.focus.Title.In(s.e.p.Lang())) + "\n\n")
	b.WriteString(strings.TrimRight(body, "\n") + "\n\n")
	b.WriteString(s.progress())
	ids := make([]string, len(s.exs))
	for i, ex := range s.exs {
		ids[i] = ex.ID
	}
	if s.w.Polling() {
		b.WriteString(s.e.p.T("watch.polling", "Exercises", strings.Join(ids, ", "), "Interval", s.w.Interval()) + "\n")
	} else {
		b.WriteString(s.e.p.T("watch.watching", "Exercises", strings.Join(ids, ", ")) + "\n")
	}
	b.WriteString(s.e.p.T("watch.keys") + "\n")
	// Every line of kurs's words fits the window, broken between words.
	io.WriteString(s.out, s.scr.fit(b.String()))
}

// progress returns each exercise of the course with its mark, and the
// course's progress.
func (s *watchRun) progress() string {
	st, err := s.loop.Standing()
	if err != nil {
		return s.e.p.T("error.progress", "Err", err) + "\n"
	}
	var marks []string
	for _, ex := range s.course.Exercises {
		marks = append(marks, st.State(ex).Mark()+" "+ex.ID)
	}
	// A long course wraps between exercises, never between a mark and its
	// exercise.
	var b strings.Builder
	w := 0
	for _, m := range marks {
		switch {
		case w == 0:
		case w+3+termdoc.Width(m) > s.scr.width:
			b.WriteString("\n")
			w = 0
		default:
			b.WriteString("   ")
			w += 3
		}
		b.WriteString(m)
		w += termdoc.Width(m)
	}
	b.WriteString("\n" + s.e.progressLine(st) + "\n")
	return b.String()
}

// hint returns the next hint for the exercise in focus and counts it as
// seen, as kurs hint does.
func (s *watchRun) hint() string {
	ex := s.focus
	h, err := s.loop.NextHint(ex, s.e.p.Lang())
	if h.Total == 0 {
		if err != nil {
			return s.e.p.T("error.progress", "Err", err)
		}
		return s.e.p.T("hint.none", "Exercise", ex.ID)
	}
	var b strings.Builder
	b.WriteString(s.e.p.T("hint.header", "N", h.N, "Total", h.Total, "Exercise", ex.ID) + "\n")
	_ = termdoc.Render(&b, []byte(h.Text), s.scr.text())
	if h.Last() {
		b.WriteString(s.e.p.T("hint.last") + "\n")
	}
	if err != nil {
		b.WriteString(s.e.p.T("error.progress", "Err", err) + "\n")
	}
	return b.String()
}

// list returns the watched exercises with their states, the one in focus
// marked.
func (s *watchRun) list() string {
	standing, err := s.loop.Standing()
	if err != nil {
		return s.e.p.T("error.progress", "Err", err)
	}
	var b strings.Builder
	for _, ex := range s.exs {
		st := standing.State(ex)
		state, mark, score := s.e.p.T("list."+string(st)), st.Mark(), standing.Points(ex)
		focus := " "
		if ex == s.focus {
			focus = "▸"
		}
		fmt.Fprintf(&b, "%s %s %-16s %s — %s, %s\n", focus, mark, ex.ID, ex.Title.In(s.e.p.Lang()), state,
			s.e.p.T("result.points", "Score", score, "Max", ex.Points))
	}
	return b.String()
}

// task returns the task of the exercise in focus and the files to edit.
func (s *watchRun) task() string {
	ex, lang := s.focus, s.e.p.Lang()
	// Exercises are numbered in their lesson, as the lesson numbers them.
	n, total := 1, 1
	if l, ok := s.course.Lesson(ex.Lesson); ok {
		n, total = slices.Index(l.Exercises, ex.ID)+1, len(l.Exercises)
	}
	var b strings.Builder
	b.WriteString(s.e.p.T("watch.task", "N", n, "Total", total, "Exercise", ex.ID, "Title", ex.Title.In(lang)) + "\n\n")
	_ = termdoc.Render(&b, []byte(ex.Summary.In(lang)), s.scr.text())
	files, _ := s.ws.Sources(ex.ID)
	if len(files) > 0 {
		b.WriteString("\n" + s.e.p.T("watch.files", "Files", strings.Join(files, ", ")) + "\n")
	}
	return b.String()
}

// next returns what comes next among the watched exercises after ex (nil
// at the start), by the session's one rule (see session.Standing.Next);
// nil when every other one has passed.
func (s *watchRun) next(ex *course.Exercise) *course.Exercise {
	st, err := s.loop.Standing()
	if err != nil {
		return nil
	}
	return st.Next(s.exs, ex)
}

// after returns the watched exercise after ex, going round.
func (s *watchRun) after(ex *course.Exercise) *course.Exercise {
	for i, x := range s.exs {
		if x == ex {
			return s.exs[(i+1)%len(s.exs)]
		}
	}
	return s.exs[0]
}

// allPassed reports whether every exercise of the course has passed once.
func (s *watchRun) allPassed() bool {
	st, err := s.loop.Standing()
	if err != nil {
		return false
	}
	t := st.Totals()
	return t.Passed == t.Exercises
}

func (s *watchRun) bye() {
	fmt.Fprintln(s.out, s.scr.fit(s.e.p.T("watch.bye")))
}

// readKeys reads keys from in until it ends or done is closed: in raw mode
// each byte is a key; otherwise (a pipe, a test) the first letter of each
// line is. The channel is closed at the end of the input.
func readKeys(in io.Reader, raw bool, done <-chan struct{}) <-chan byte {
	keys := make(chan byte)
	send := func(k byte) bool {
		select {
		case keys <- k:
			return true
		case <-done:
			return false
		}
	}
	go func() {
		defer close(keys)
		if raw {
			buf := make([]byte, 64)
			for {
				n, err := in.Read(buf)
				// An escape sequence (an arrow key, F1) is no key of ours.
				if n > 0 && buf[0] != 0x1b {
					for _, k := range buf[:n] {
						if !send(k) {
							return
						}
					}
				}
				if err != nil {
					return
				}
			}
		}
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); line != "" && !send(line[0]) {
				return
			}
		}
	}()
	return keys
}

// crlf writes "\n" as "\r\n", for a terminal in raw mode.
type crlf struct{ w io.Writer }

func (c crlf) Write(p []byte) (int, error) {
	if _, err := c.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Command live measures how long a save takes to reach the learner's
// screen in kurs's live front ends, next to a `kurs check` of the same
// change: in `kurs watch` on a real pseudo-terminal, in the exercise's
// page in Chromium after a save in another editor, and in the page after
// Ctrl+S in its own editor. Each round saves the same kind of change once
// for each, each round beginning with the next front end, so that the
// machine's load weighs on all alike (the aim: each live front end within 1.1× the check).
//
// Run it from the repository's root:
//
//	go run ./bench/live                 # 40 rounds of each kind of change
//	go run ./bench/live -n 60
//	go run ./bench/live -change=seen    # one kind only
//	go run ./bench/live -page=false     # without Chromium
//
// Each front end has a workspace of its own, so that a save reaches only
// the one timed. A round's change alternates between a wrong and a right
// circuit breaker, so that every save brings a new verdict. Three kinds
// of change are timed in turn, each in its own rounds:
//   - body: each save changes the code of New (a statement that no trace
//     reaches, with a number of its own): a new program, compiled, linked
//     and run, as after a learner's edit of a function;
//   - comment: each save adds a new comment: compiled, and its program is
//     one checked before, whose result is kept;
//   - seen: each save is a text checked before (once, before its round,
//     untimed, in a workspace of the bench's: the checker's cache is the
//     machine's), as after an undo: its result is kept, nothing is built,
//     and each front end's fixed costs weigh most.
//
// The checker's cache is the machine's, shared by the front ends: a text
// that one front end's check built would be found built by the next. So
// each save of body and comment is a text of its own, never saved
// before, in this run or an earlier one (each run's texts carry a number
// of its own). What is timed, from the save to the verdict delivered to
// the terminal or the page, before either draws it (a terminal's drawing
// and a browser's layout and painting are not timed, for any front end):
//   - kurs check: from the save to the end of `kurs check circuitbreaker`,
//     its verdict printed;
//   - kurs watch: from the save to the verdict's line read off the
//     terminal;
//   - the page: from the save to the new verdict in the page's document,
//     as the page itself notes it (a MutationObserver), two pages of two
//     `kurs serve`s. A save in the page begins when the page receives the
//     key press (the page notes that too), once the page is idle after
//     the new text was put into its editor, as a learner's editor is
//     after typing (the figure is for an editor that has parsed its
//     text): Chromium delivers a key sent over the DevTools protocol
//     after a delay of its own, which is the harness's, not kurs's; its
//     median is printed apart. It includes the page's own save, flushed
//     to the disk with its backup; the others' saves are the bench's
//     plain writes. A save in another editor is also split where the
//     page receives the result's event (a Performance API mark of the
//     page's own): the watcher, the check and the event before it, the
//     page's fetching and showing after. The pages run as in a learner's
//     browser, with no DevTools reporting their requests and changes: the
//     bench turns those reports off once a page is open, and drives the
//     page by its script and by key presses alone.
//
// Everything it creates is removed at the end, and the processes it
// started are stopped.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
	"github.com/kurs-course/kurs/internal/pty"
)

func main() {
	n := flag.Int("n", 40, "rounds of saves to time for each kind of change (each round one save in every front end)")
	page := flag.Bool("page", true, "also time saves in the page (needs Chromium)")
	only := flag.String("change", "", "time one kind of change only: body (a new program), comment (a new comment) or seen (a text checked before); all three by default, about a minute")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintln(os.Stderr, "bench/live: -n is the number of rounds, at least 1")
		os.Exit(2)
	}
	if *only != "" {
		if _, ok := what[*only]; !ok {
			fmt.Fprintln(os.Stderr, "bench/live: -change is body, comment or seen")
			os.Exit(2)
		}
		kinds = []string{*only}
	}
	if err := run(*n, *page); err != nil {
		fmt.Fprintln(os.Stderr, "bench/live:", err)
		os.Exit(1)
	}
}

// contestant is one way a learner sees the result of a save.
type contestant struct {
	name string
	file string // the circuit breaker's file in its workspace
	// save writes src (or has the page write it) and returns when the save
	// began and when the verdict was on the screen.
	save  func(src []byte) (start, seen time.Time, err error)
	times []time.Duration
	// delays, for the page's own save, are how long Chromium took to
	// deliver each key press sent over the DevTools protocol.
	delays []time.Duration
	// toEvent and afterEvent split a save in another editor at the moment
	// the page received the result's announcement: the watcher, the check
	// and the event before, the page's fetching and drawing after.
	toEvent, afterEvent []time.Duration
}

func run(n int, page bool) error {
	s, err := benchutil.NewSetup("live")
	if err != nil {
		return err
	}
	defer s.Close()
	workspace := func(name string) (dir, file string, err error) {
		dir = filepath.Join(s.Dir, name)
		if out, err := exec.Command(s.Kurs, "init", dir, "--lang", "en", "--no-warm").CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("kurs init: %v\n%s", err, out)
		}
		return dir, filepath.Join(dir, "circuitbreaker", "circuitbreaker.go"), nil
	}
	write := func(file string, src []byte) (time.Time, error) {
		start := time.Now()
		return start, os.WriteFile(file, src, 0o644)
	}

	// kurs check, in the setup's workspace.
	check := &contestant{name: "kurs check", file: s.Learner}
	check.save = func(src []byte) (start, seen time.Time, err error) {
		if start, err = write(check.file, src); err != nil {
			return
		}
		out, err := exec.Command(s.Kurs, "check", "circuitbreaker", "--workspace", s.Workspace).CombinedOutput()
		seen = time.Now()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) || !verdict.Match(out) {
			return start, seen, fmt.Errorf("kurs check: %v\n%s", err, out)
		}
		return start, seen, nil
	}
	contestants := []*contestant{check}

	// kurs watch, on a pseudo-terminal.
	wsWatch, watchFile, err := workspace("ws-watch")
	if err != nil {
		return err
	}
	// The watched file begins as the others do, so that watch checks it at
	// the start.
	for _, f := range []string{s.Learner, watchFile} {
		if err := os.WriteFile(f, benchutil.Edit(s.Solution, -1), 0o644); err != nil {
			return err
		}
	}
	w, err := startTTY(s.Kurs, "watch", "circuitbreaker", "--workspace", wsWatch)
	if err != nil {
		return err
	}
	defer w.stop()
	if _, err := w.await(time.Time{}); err != nil {
		return fmt.Errorf("kurs watch's first check: %w", err)
	}
	watch := &contestant{name: "kurs watch (terminal)", file: watchFile}
	watch.save = func(src []byte) (start, seen time.Time, err error) {
		if start, err = write(watch.file, src); err != nil {
			return
		}
		seen, err = w.await(start)
		return start, seen, err
	}
	contestants = append(contestants, watch)

	if page {
		pages, stop, err := startPages(s, workspace)
		if err != nil {
			return err
		}
		defer stop()
		contestants = append(contestants, pages...)
	}

	// Warm up: one save of each kind for everyone.
	for i, src := range [][]byte{s.Wrong, s.Solution} {
		for _, c := range contestants {
			if _, _, err := c.save(benchutil.Edit(src, -2-i)); err != nil {
				return fmt.Errorf("%s, warming up: %w", c.name, err)
			}
		}
	}
	// A pass for each kind of change, one after the other, each with
	// rounds of its own; a workspace where a round's text is checked
	// before the round, untimed, for "seen".
	wsSeen, seenFile, err := workspace("ws-seen")
	if err != nil {
		return err
	}
	nonce := time.Now().UnixNano() % 1e9
	for _, kind := range kinds {
		for _, c := range contestants {
			c.times, c.delays, c.toEvent, c.afterEvent = nil, nil, nil, nil
		}
		for i := range n {
			src := s.Wrong
			if i%2 == 1 {
				src = s.Solution
			}
			if kind == "seen" {
				if err := os.WriteFile(seenFile, edit(src, kind, nonce, i), 0o644); err != nil {
					return err
				}
				if out, err := exec.Command(s.Kurs, "check", "circuitbreaker", "--workspace", wsSeen).CombinedOutput(); !verdict.Match(out) {
					return fmt.Errorf("kurs check before round %d: %v\n%s", i, err, out)
				}
			}
			for j := range contestants {
				k := (i + j) % len(contestants)
				c := contestants[k]
				// The checker's cache is the machine's: a text that one
				// contestant's check built would be found built by the
				// next. Each save is a text of its own, unless seen.
				text := edit(src, kind, nonce, i*len(contestants)+k)
				if kind == "seen" {
					text = edit(src, kind, nonce, i)
				}
				start, seen, err := c.save(text)
				if err != nil {
					return fmt.Errorf("%s, %s, round %d: %w", c.name, kind, i, err)
				}
				c.times = append(c.times, seen.Sub(start))
			}
		}
		report(kind, n, contestants)
	}
	return nil
}

// kinds are the changes timed, in turn: a change of code (each save a new
// program, built, linked and run, as after a learner's edit of a
// function), a new comment (compiled; the program is the same as an
// earlier one, whose result is kept) and a text checked before (an undo:
// its result is kept).
var kinds = []string{"body", "comment", "seen"}

// what says what each kind of save is, for the report.
var what = map[string]string{
	"body":    "each save a new program: its code changed (built, linked and run)",
	"comment": "each save a new comment: compiled, its program's result kept",
	"seen":    "each save a text checked before (an undo): its result kept",
}

// edit returns src changed for save n of a run (nonce) as kind says: in
// New's body, by a statement that no trace reaches, or by a comment at
// the end; seen texts are comments too, checked before they are saved.
func edit(src []byte, kind string, nonce int64, n int) []byte {
	tag := nonce*100000 + int64(n)
	if kind != "body" {
		return fmt.Appendf(bytes.Clone(src), "\n// edit %s %d\n", kind, tag)
	}
	const at = "\treturn &CircuitBreaker{"
	stmt := fmt.Sprintf("\tif wait == -%d {\n\t\twait = 0\n\t}\n", tag+1)
	return bytes.Replace(src, []byte(at), []byte(stmt+at), 1)
}

// report prints the times of one kind of change and their ratios.
func report(kind string, n int, contestants []*contestant) {
	fmt.Printf("\n%s: %d rounds, %s (a wrong and a right breaker alternating; each round one save in each front end, the round's first in turn)\n", kind, n, what[kind])
	for _, c := range contestants {
		benchutil.Report(c.name+":", c.times)
	}
	for _, c := range contestants {
		if len(c.delays) > 0 {
			benchutil.Report(c.name+", the key's delivery before it (not timed):", c.delays)
		}
	}
	for _, c := range contestants {
		if len(c.toEvent) > 0 {
			benchutil.Report(c.name+", save to the result's event:", c.toEvent)
			benchutil.Report(c.name+", event to verdict in the page:", c.afterEvent)
		}
	}
	base := benchutil.Median(contestants[0].times).Seconds()
	for _, c := range contestants[1:] {
		r := benchutil.Median(c.times).Seconds() / base
		fmt.Printf("ratio of medians, %s / kurs check: %.2fx (aim: at most 1.1x)\n", c.name, r)
		benchutil.Summary("live, %s: %s, save to verdict delivered / kurs check of the same change: %.2f× (medians of %d saves, interleaved; aim: at most 1.1×)", kind, c.name, r, n)
	}
}

// verdict matches the line of a result for the circuit breaker, as kurs
// check and kurs watch print it.
var verdict = regexp.MustCompile(`(?m)^[✓✗] circuitbreaker — `)

// escape matches a terminal's escape sequences, which stand between the
// words of a screen.
var escape = regexp.MustCompile(`\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-B])`)

// tty is kurs running on a pseudo-terminal.
type tty struct {
	cmd     *exec.Cmd
	master  *os.File
	seen    chan time.Time // when a verdict's line arrived
	exited  chan struct{}
	mu      sync.Mutex   // guards history
	history bytes.Buffer // what the terminal showed, to explain a failure
}

// startTTY starts kurs args on a new pseudo-terminal of 100×50.
func startTTY(kurs string, args ...string) (*tty, error) {
	master, slave, err := pty.Open(100, 50)
	if err != nil {
		return nil, err
	}
	defer slave.Close()
	t := &tty{cmd: exec.Command(kurs, args...), master: master, seen: make(chan time.Time, 16),
		exited: make(chan struct{})}
	t.cmd.Stdin, t.cmd.Stdout, t.cmd.Stderr = slave, slave, slave
	t.cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	t.cmd.SysProcAttr = ttyAttr()
	if err := t.cmd.Start(); err != nil {
		master.Close()
		return nil, err
	}
	go func() {
		_ = t.cmd.Wait() // how it ended does not matter, only that it did
		close(t.exited)
	}()
	go t.read()
	return t, nil
}

// read follows the terminal line by line; a line with a verdict is the
// moment the learner sees it. A verdict that the code does not build is
// left out: no save here is wrong Go, so it is of a file caught half
// written, which the watcher follows with a check of the whole file.
func (t *tty) read() {
	defer close(t.seen)
	buf := make([]byte, 64<<10)
	var line []byte
	var held time.Time // a verdict's arrival, until its next line says what it is
	for {
		n, err := t.master.Read(buf)
		now := time.Now()
		t.mu.Lock()
		t.history.Write(buf[:n])
		t.mu.Unlock()
		for _, b := range buf[:n] {
			if b != '\n' {
				line = append(line, b)
				continue
			}
			text := escape.ReplaceAll(bytes.TrimSpace(line), nil)
			line = line[:0]
			switch {
			case verdict.Match(text):
				held = now
			case held.IsZero() || len(text) == 0:
			case bytes.Contains(text, []byte("does not build")):
				held = time.Time{}
			default:
				t.seen <- held
				held = time.Time{}
			}
		}
		if err != nil {
			return
		}
	}
}

// await returns when the next verdict arrived after the save at start:
// one shown before it, of an earlier save checked twice, is not this
// save's.
func (t *tty) await(start time.Time) (time.Time, error) {
	timeout := time.After(benchutil.Patience)
	for {
		select {
		case at, ok := <-t.seen:
			if ok && at.Before(start) {
				continue
			}
			if ok {
				return at, nil
			}
		case <-timeout:
		}
		break
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	h := t.history.String()
	return time.Time{}, fmt.Errorf("no verdict on the terminal; it showed:\n%s", h[max(0, len(h)-2000):])
}

// stop quits kurs watch with q, kills it if it stays, and closes the
// terminal.
func (t *tty) stop() {
	_, _ = io.WriteString(t.master, "q")
	select {
	case <-t.exited:
	case <-time.After(10 * time.Second):
		_ = t.cmd.Process.Kill()
		<-t.exited
	}
	t.master.Close()
}

// startPages starts two kurs serve on workspaces of their own and opens
// the breaker's page of each in Chromium: one that follows saves in
// another editor, one whose own editor saves.
func startPages(s *benchutil.Setup, workspace func(string) (string, string, error)) ([]*contestant, func(), error) {
	var stops []func()
	stop := func() {
		for _, f := range slices.Backward(stops) {
			f()
		}
	}
	ctx, stopChromium, ok, err := newChromium()
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		fmt.Println("page: skipped, Chromium is not installed (apt-get install chromium)")
		return nil, func() {}, nil
	}
	stops = append(stops, stopChromium)
	open := func(name string) (tab context.Context, file string, err error) {
		dir, file, err := workspace(name)
		if err != nil {
			return nil, "", err
		}
		if err := os.WriteFile(file, benchutil.Edit(s.Solution, -1), 0o644); err != nil {
			return nil, "", err
		}
		srv, err := s.Start("serve", "--addr", "127.0.0.1:0", "--workspace", dir)
		if err != nil {
			return nil, "", err
		}
		stops = append(stops, func() {
			_ = srv.Interrupt()
			_ = srv.End(10 * time.Second)
		})
		login, base, err := srv.Login()
		if err != nil {
			return nil, "", err
		}
		go func() { _, _ = io.Copy(io.Discard, srv.Stdout) }()
		// The tab is opened without a deadline: the context of its first
		// action is its life.
		tab, cancel := chromedp.NewContext(ctx)
		stops = append(stops, cancel)
		if err := chromedp.Do(tab); err != nil {
			return nil, "", err
		}
		if err := within(tab, chromedp.Navigate(login), chromedp.Navigate(base+"/exercise/circuitbreaker"),
			chromedp.WaitVisible(chromedp.CSS("#verdict")), chromedp.WaitVisible(chromedp.CSS(".cm-content")),
			chromedp.Evaluate[chromedp.Void](observe)); err != nil {
			return nil, "", fmt.Errorf("open the page of %s: %w", name, err)
		}
		// chromedp turns on DevTools' reports of the tab's requests, DOM
		// and styles; a learner's browser has no DevTools client. Off, so
		// that the times are the page's, not the reporting's: while they
		// were on, Chromium copied each answer to DevTools and sent an
		// event for every request and every change of the page to this
		// program, all in the timed span.
		for _, cmd := range []cdp.Command[cdp.Empty, cdp.Empty]{network.Disable, css.Disable, dom.Disable} {
			if _, err := chromedp.Call(tab, cmd, cdp.Empty{}); err != nil {
				return nil, "", fmt.Errorf("open the page of %s: %s: %w", name, cmd.Method, err)
			}
		}
		return tab, file, nil
	}

	outside, outsideFile, err := open("ws-page")
	if err != nil {
		stop()
		return nil, nil, err
	}
	own, ownFile, err := open("ws-page-save")
	if err != nil {
		stop()
		return nil, nil, err
	}
	seenOutside, seenOwn := 0, 0
	a := &contestant{name: "page, saved in another editor", file: outsideFile}
	a.save = func(src []byte) (start, seen time.Time, err error) {
		start = time.Now()
		if err = os.WriteFile(a.file, src, 0o644); err != nil {
			return
		}
		var event time.Time
		if seen, event, err = awaitPage(outside, &seenOutside, start); err != nil || event.Before(start) {
			return start, seen, err
		}
		a.toEvent = append(a.toEvent, event.Sub(start))
		a.afterEvent = append(a.afterEvent, seen.Sub(event))
		return start, seen, nil
	}
	b := &contestant{name: "page, saved in the page (Ctrl+S)", file: ownFile}
	b.save = func(src []byte) (start, seen time.Time, err error) {
		// Typing is not timed; saving is, from the key press on.
		// Focused by the page's own script: the DOM domain is off.
		if err = within(own, chromedp.Evaluate[chromedp.Void](`document.querySelector(".cm-content").focus()`),
			chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
			return
		}
		c, cancel := context.WithTimeout(own, benchutil.Patience)
		_, err = chromedp.Call(c, input.InsertText, input.InsertTextParams{Text: string(src)})
		cancel()
		if err != nil {
			return
		}
		// A learner's editor has parsed what was typed by the time the
		// learner saves; the whole file put in at once keeps the page
		// busy parsing for tens of milliseconds, which would delay the
		// key. The save begins once the page is idle.
		c, cancel = context.WithTimeout(own, benchutil.Patience)
		_, err = chromedp.Run(c, chromedp.Evaluate[bool](`new Promise((r) => requestAnimationFrame(() => requestIdleCallback(() => r(true))))`, chromedp.EvalAwaitPromise))
		cancel()
		if err != nil {
			return
		}
		// The key goes down now and up after the verdict: its release,
		// which the page does nothing with, is no work of the save's.
		var down, up []*input.DispatchKeyEventParams
		for _, k := range kb.Encode('s') {
			k.Modifiers |= int64(chromedp.ModifierCtrl)
			switch k.Type {
			case input.DispatchKeyEventTypeKeyUp:
				up = append(up, k)
			case input.DispatchKeyEventTypeChar: // no character with Ctrl, as chromedp.KeyEvent does
			default:
				down = append(down, k)
			}
		}
		press := func(keys []*input.DispatchKeyEventParams) error {
			c, cancel := context.WithTimeout(own, benchutil.Patience)
			defer cancel()
			for _, k := range keys {
				if _, err := chromedp.Call(c, input.DispatchKeyEvent, *k); err != nil {
					return err
				}
			}
			return nil
		}
		sent := time.Now()
		if err = press(down); err != nil {
			return
		}
		seen, _, err = awaitPage(own, &seenOwn, time.Time{})
		if perr := press(up); err == nil {
			err = perr
		}
		if err != nil {
			return
		}
		c, cancel = context.WithTimeout(own, benchutil.Patience)
		keys, err := chromedp.Run(c, chromedp.Evaluate[[]float64](`window.kursKeys`))
		cancel()
		if err != nil {
			return
		}
		if len(keys) == 0 {
			return start, seen, errors.New("the page noted no key press")
		}
		start = pageTime(keys[len(keys)-1])
		b.delays = append(b.delays, start.Sub(sent))
		return start, seen, nil
	}
	return []*contestant{a, b}, stop, nil
}

// observe is put into the page: it notes, for every new verdict the page
// shows and for every Ctrl+S it receives, the time on the machine's clock
// in milliseconds since 1970, the clock time.Now reads too. The key is
// noted before the page's own handlers see it. A verdict also wakes those
// waiting for it (awaitPage), so that nothing polls the page while a save
// is timed: polling would load the machine during the page's saves alone.
const observe = `(() => {
  window.kursSeen = [];
  window.kursKeys = [];
  window.kursEvents = [];
  window.kursWaiters = [];
  document.addEventListener("keydown", (e) => {
    if (e.key === "s" && (e.ctrlKey || e.metaKey)) window.kursKeys.push(performance.timeOrigin + performance.now());
  }, true);
  let last = document.querySelector("#verdict")?.dataset.seq;
  new MutationObserver(() => {
    const v = document.querySelector("#verdict");
    if (v && v.dataset.seq !== last) {
      last = v.dataset.seq;
      // A file caught half written does not build; its whole is checked next.
      if (v.dataset.status === "error") return;
      window.kursSeen.push(performance.timeOrigin + performance.now());
      const ev = performance.getEntriesByName("kurs:result-event").at(-1);
      window.kursEvents.push(ev ? performance.timeOrigin + ev.startTime : 0);
      window.kursWaiters = window.kursWaiters.filter((w) => !w());
    }
  }).observe(document.getElementById("result"), { childList: true, subtree: true });
  return "";
})()`

// awaitPage waits for the page's next verdict after the *seen it has
// shown before and returns when it appeared, on the machine's clock, and
// when the announcement of its result arrived (zero when none came, as
// after the page's own save). A verdict shown before start, of an earlier
// save checked twice, is not this save's.
func awaitPage(tab context.Context, seen *int, start time.Time) (shown, event time.Time, err error) {
	c, cancel := context.WithTimeout(tab, benchutil.Patience)
	defer cancel()
	for {
		// One call that returns once the page has shown more than *seen
		// verdicts.
		last, err := chromedp.Run(c, chromedp.Evaluate[[]float64](fmt.Sprintf(`new Promise((resolve) => {
  const ready = () => {
    if (window.kursSeen.length <= %d) return false;
    resolve([window.kursSeen.length, window.kursSeen.at(-1), window.kursEvents.at(-1) || 0]);
    return true;
  };
  if (!ready()) window.kursWaiters.push(ready);
})`, *seen), chromedp.EvalAwaitPromise))
		if errors.Is(err, context.DeadlineExceeded) {
			return time.Time{}, time.Time{}, errors.New("the page showed no new verdict in time")
		}
		if err != nil {
			return time.Time{}, time.Time{}, err
		}
		*seen = int(last[0])
		if pageTime(last[1]).Before(start) {
			continue
		}
		if last[2] > 0 {
			event = pageTime(last[2])
		}
		return pageTime(last[1]), event, nil
	}
}

// pageTime is the time a page noted as milliseconds since 1970.
func pageTime(ms float64) time.Time {
	return time.UnixMilli(int64(ms)).Add(time.Duration((ms - float64(int64(ms))) * float64(time.Millisecond)))
}

// within runs actions in tab, for at most benchutil.Patience.
func within(tab context.Context, actions ...chromedp.Action[chromedp.Void]) error {
	c, cancel := context.WithTimeout(tab, benchutil.Patience)
	defer cancel()
	return chromedp.Do(c, actions...)
}

// newChromium starts a headless Chromium of its own profile; ok is false
// when Chromium is not installed.
func newChromium() (ctx context.Context, stop func(), ok bool, err error) {
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		return nil, nil, false, nil
	}
	profile, err := os.MkdirTemp("", "kurs-bench-chromium-")
	if err != nil {
		return nil, nil, false, err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(profile), chromedp.WindowSize(1280, 800),
		// Chromium's own temporary folder (its singleton's socket) in the
		// profile, so that it goes with it.
		chromedp.Env("TMPDIR="+profile))
	ctx, cancel := chromedp.NewContext(alloc)
	stop = func() {
		cancel()
		cancelAlloc()
		os.RemoveAll(profile)
	}
	if err := chromedp.Do(ctx); err != nil {
		stop()
		return nil, nil, false, fmt.Errorf("start chromium: %w", err)
	}
	return ctx, stop, true, nil
}

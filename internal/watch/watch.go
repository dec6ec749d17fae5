// Package watch tells which exercises of a workspace change on disk. It
// watches the exercise folders with fsnotify, or polls them where file
// events do not arrive, waits until a burst of saves is over, and then
// reports each exercise whose Go files now differ from what it last
// reported.
//
// It does not check anything: kurs watch and the web UI run the checker
// for the ids it delivers. It looks only at what the checker reads, the
// non-test .go files directly in an exercise folder; other files, sub-folders
// and symbolic links never cause a change.
package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	wspace "github.com/kurs-course/kurs/internal/workspace"
)

// Defaults for Options.
const (
	// DefaultDebounce is the quiet time that ends a burst of saves, and
	// it adds to every save's time until the learner sees the result.
	// An editor's save is over well within it: measured with fsnotify on
	// Linux at a load of 6–9 on two cores, vim's save (12 events), a save
	// through a temporary file and a rename (4) and a plain write (1–2)
	// each arrived within 0.15 ms. At 5 ms, on a fast machine where a
	// check that changed nothing took 15 ms, the debounce was a third of
	// a save's time in kurs watch and the page. A save still split by it
	// (a writer descheduled in the middle) costs one more check: the
	// front ends follow every change with a check of the files as they
	// are then, so the last verdict shown is always of what the burst
	// left.
	DefaultDebounce = 2 * time.Millisecond
	// DefaultPoll is the polling interval when fsnotify cannot be used and
	// Options.Poll does not set one. With the debounce and a check of about
	// 0.3 s it keeps a save's result within a second.
	DefaultPoll = 300 * time.Millisecond
)

// Options tune a Watcher; zero values mean defaults.
//
// With Poll 0 the Watcher uses fsnotify and polls only when fsnotify fails:
// when it cannot start, cannot watch a folder or reports an error, and on
// file systems known to deliver no events for changes made elsewhere (on
// Linux: WSL's 9p drives, VirtualBox shared folders, NFS and SMB).
type Options struct {
	Debounce time.Duration // default DefaultDebounce
	Poll     time.Duration // polling interval of the fallback; 0 = fsnotify with a polling fallback only when fsnotify fails, >0 = poll always (e.g. for WSL/network drives, flag --poll)
}

// Watcher reports changed exercises on its Changes channel until it is
// closed. Its methods may be called from any goroutine.
type Watcher struct {
	root     string
	ids      []string
	debounce time.Duration
	poll     time.Duration // interval used once polling, also after a fallback

	changes chan string
	done    chan struct{} // closed by Close
	stopped chan struct{} // closed when the loop has ended
	once    sync.Once
	polling atomic.Bool
	err     error // fsnotify's Close error; written before stopped is closed

	// last is the digest of each exercise (workspace.DigestDir) as last reported (or as at
	// the start); only the loop touches it once it runs.
	last map[string]string
}

// New watches the exercise folders root/<id> for the given ids.
func New(root string, ids []string, opt Options) (*Watcher, error) {
	return newWatcher(root, ids, opt, fsnotify.NewWatcher)
}

// newWatcher is New with the fsnotify constructor as a parameter, so that
// tests can make fsnotify fail.
func newWatcher(root string, ids []string, opt Options, notify func() (*fsnotify.Watcher, error)) (*Watcher, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("watch: %s is not a folder", root)
	}
	if len(ids) == 0 {
		return nil, errors.New("watch: no exercises to watch")
	}
	w := &Watcher{
		root:     root,
		ids:      slices.Clone(ids),
		debounce: opt.Debounce,
		poll:     opt.Poll,
		changes:  make(chan string),
		done:     make(chan struct{}),
		stopped:  make(chan struct{}),
		last:     map[string]string{},
	}
	if w.debounce <= 0 {
		w.debounce = DefaultDebounce
	}
	for _, id := range w.ids {
		w.last[id] = wspace.DigestDir(w.dir(id))
	}
	var fsw *fsnotify.Watcher
	if opt.Poll <= 0 && !eventsUnreliable(root) {
		// Any failure here is a reason to poll, not to refuse watching.
		if fsw, err = notify(); err == nil {
			if err = w.add(fsw); err != nil {
				fsw.Close()
				fsw = nil
			}
		} else {
			fsw = nil
		}
	}
	if fsw == nil {
		w.startPolling()
	}
	go w.loop(fsw)
	return w, nil
}

// Changes delivers the id of an exercise whose .go files changed, once per burst of saves.
func (w *Watcher) Changes() <-chan string { return w.changes }

// Close stops watching and closes Changes.
func (w *Watcher) Close() error {
	w.once.Do(func() { close(w.done) })
	<-w.stopped
	return w.err
}

// Polling reports whether the Watcher polls the folders instead of
// receiving file events, by request or as a fallback.
func (w *Watcher) Polling() bool { return w.polling.Load() }

// Interval returns the polling interval; it matters only when Polling.
func (w *Watcher) Interval() time.Duration { return w.poll }

func (w *Watcher) startPolling() {
	if w.poll <= 0 {
		w.poll = DefaultPoll
	}
	w.polling.Store(true)
}

func (w *Watcher) dir(id string) string { return filepath.Join(w.root, id) }

// add watches the root, to see exercise folders appear and go, and every
// exercise folder that exists. Only folders are watched: inotify and
// kqueue report a rename over a file as an event in its folder, which a
// watch on the file itself would lose.
func (w *Watcher) add(fsw *fsnotify.Watcher) error {
	if err := fsw.Add(w.root); err != nil {
		return err
	}
	for _, id := range w.ids {
		if err := fsw.Add(w.dir(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// idOf returns the exercise an event's path belongs to, and whether the
// path is the exercise folder itself.
func (w *Watcher) idOf(name string) (id string, folder bool) {
	rel, err := filepath.Rel(w.root, name)
	if err != nil {
		return "", false
	}
	first, rest, nested := strings.Cut(rel, string(filepath.Separator))
	if !slices.Contains(w.ids, first) || strings.Contains(rest, string(filepath.Separator)) {
		return "", false
	}
	return first, !nested
}

// loop owns the fsnotify watcher, the pending bursts and the queue of ids
// to deliver. It never blocks on a slow reader of Changes: ids wait in
// ready, each at most once, however many bursts pass meanwhile.
func (w *Watcher) loop(fsw *fsnotify.Watcher) {
	defer close(w.stopped)
	defer close(w.changes)
	var events <-chan fsnotify.Event
	var errs <-chan error
	if fsw != nil {
		events, errs = fsw.Events, fsw.Errors
	}
	stopNotify := func() {
		if fsw != nil {
			w.err = fsw.Close()
			fsw, events, errs = nil, nil, nil
		}
	}
	defer stopNotify()

	var tick <-chan time.Time
	var ticker *time.Ticker
	startTicker := func() {
		ticker = time.NewTicker(w.poll)
		tick = ticker.C
	}
	if w.Polling() {
		startTicker()
	}
	defer func() {
		if ticker != nil {
			ticker.Stop()
		}
	}()

	seen := map[string]string{} // what polling saw last, to notice a new change
	for id, fp := range w.last {
		seen[id] = fp
	}
	pending := map[string]time.Time{} // id → end of its quiet period
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	var ready []string

	// rearm sets the timer to the end of the earliest quiet period, so
	// that a busy exercise does not hold back a quiet one.
	rearm := func() {
		var first time.Time
		for _, at := range pending {
			if first.IsZero() || at.Before(first) {
				first = at
			}
		}
		if !first.IsZero() {
			timer.Reset(max(time.Until(first), 0))
		}
	}
	mark := func(id string) {
		pending[id] = time.Now().Add(w.debounce)
		rearm()
	}
	markAll := func() {
		for _, id := range w.ids {
			mark(id)
		}
	}

	for {
		var out chan<- string
		var next string
		if len(ready) > 0 {
			out, next = w.changes, ready[0]
		}
		select {
		case <-w.done:
			return

		case out <- next:
			ready = ready[1:]

		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			id, folder := w.idOf(ev.Name)
			if id == "" {
				continue
			}
			if folder && ev.Has(fsnotify.Create) {
				// A folder made again (by kurs reset, git checkout, …)
				// needs a new watch; a failure shows when polling.
				if err := fsw.Add(ev.Name); err != nil && !errors.Is(err, fs.ErrNotExist) {
					stopNotify()
					w.startPolling()
					startTicker()
				}
			}
			mark(id)

		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			if !errors.Is(err, fsnotify.ErrEventOverflow) && !w.Polling() {
				// Events can no longer be trusted: poll from now on.
				stopNotify()
				w.startPolling()
				startTicker()
			}
			// Events were lost: any exercise may have changed.
			markAll()

		case <-tick:
			for _, id := range w.ids {
				if fp := wspace.DigestDir(w.dir(id)); fp != seen[id] {
					seen[id] = fp
					mark(id)
				}
			}

		case <-timer.C:
			now := time.Now()
			for _, id := range w.ids {
				at, ok := pending[id]
				if !ok || at.After(now) {
					continue
				}
				delete(pending, id)
				fp := wspace.DigestDir(w.dir(id))
				seen[id] = fp
				if fp == w.last[id] {
					continue // saved without a change, or changed back
				}
				w.last[id] = fp
				if !slices.Contains(ready, id) {
					ready = append(ready, id)
				}
			}
			rearm()
		}
	}
}

package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/session"
)

// exState is what the server knows of one exercise; its results, and the
// order of its checks and saves, are the session's (see Server.loop).
type exState struct {
	// waiting reports that a check triggered by a save waits for the
	// session (see session.Session.CheckSaved); more saves meanwhile need
	// no check of their own, since that one reads the files once it
	// starts.
	waiting atomic.Bool
	// saves counts the saves reported to recheck (by the watcher, or a
	// reset). A check triggered by a save notes the count when it reads
	// the files; a save reported after that has a check of its own
	// coming, which tells the pages, so that the older one's result is
	// not shown in between (an editor's burst split in two, or a file
	// checked half written).
	saves atomic.Int64
	// trying is held while a trace typed in the page runs: one try at a
	// time per exercise. A try neither waits for a check nor holds one up.
	trying sync.Mutex
	// telling is held by a check that a page's request started from
	// before the check until the pages are told its result, and by a
	// check after a save while it tells them: a save's check that finds
	// the files checked by the page's own comes second, and knows from
	// told that there is nothing to tell.
	telling sync.Mutex
	// told is the number (session.Outcome.Seq) of the newest result the
	// pages were told; guarded by telling.
	told int
}

// recheck checks ex in the background after a save, unless its files are
// the ones last checked (an editor that writes twice, or the page that
// just wrote the quiz answer and checked it).
func (s *Server) recheck(ex *course.Exercise) {
	st := s.exercises[ex.ID]
	st.saves.Add(1)
	if !st.waiting.CompareAndSwap(false, true) {
		return
	}
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		// The session orders it after a save from the page and after any
		// other check of ex; files it checked already are not checked
		// again.
		var read int64
		o, _, err := s.loop.CheckSaved(s.ctx, ex, func() {
			// In this order: a save reported in between either is
			// counted here or starts a check of its own.
			st.waiting.Store(false)
			read = st.saves.Load()
		}, func() { s.publish("checking", ex.ID, "") })
		if s.checked != nil {
			s.checked(ex.ID)
		}
		st.telling.Lock()
		defer st.telling.Unlock()
		if st.saves.Load() != read {
			return // superseded: the newer check tells the pages
		}
		if err == nil && o.Result != nil && o.Seq <= st.told {
			// Files checked already (the page's own save, an editor that
			// wrote twice), whose result the pages were told. A check
			// superseded by this save told them nothing: its result is
			// told now.
			return
		}
		s.published(ex, o, err, "")
	}()
}

// streamHeader names, in a request of a page's script, the page's events
// stream, whose hello tells it (see Server.events).
const streamHeader = "X-Kurs-Stream"

// checkNow checks ex at the request r and waits for the result, which r's
// answer brings.
func (s *Server) checkNow(r *http.Request, ex *course.Exercise) (*checker.Result, error) {
	stream := r.Header.Get(streamHeader)
	st := s.exercises[ex.ID]
	st.telling.Lock()
	defer st.telling.Unlock()
	s.hub.publish(event{name: "checking", data: eventData(ex.ID, ""), stream: stream})
	outs, err := s.loop.Check(r.Context(), []*course.Exercise{ex})
	var o session.Outcome
	if len(outs) > 0 {
		o = outs[0]
	}
	s.published(ex, o, err, stream)
	if len(outs) == 0 {
		return nil, err
	}
	return o.Result, nil
}

// published tells the pages how a check of ex ended: its result, or that
// it failed, which the log says. stream, when not empty, is the events
// stream of the page that gets the result in the answer to its request.
// The caller holds the exercise's exState.telling.
func (s *Server) published(ex *course.Exercise, o session.Outcome, err error, stream string) {
	var rec *session.RecordError
	switch {
	case errors.As(err, &rec):
		s.logf("web.log.progress", "Err", rec.Err)
	case err != nil:
		if s.ctx.Err() == nil {
			s.logf("web.log.check", "Exercise", ex.ID, "Err", err)
		}
		s.publish("failed", ex.ID, "")
		return
	}
	if o.Result != nil {
		s.publishResult(event{result: noteOf(ex, o), stream: stream})
		st := s.exercises[ex.ID]
		st.told = max(st.told, o.Seq)
	}
}

// noteOf announces the outcome o of a check of ex, which has a result.
func noteOf(ex *course.Exercise, o session.Outcome) *resultNote {
	return &resultNote{Exercise: ex.ID, Status: string(o.Result.Status), Seq: o.Seq}
}

// publishResult tells the pages that a result is there: e holds the note,
// and the page it is not sent to (event.stream).
func (s *Server) publishResult(e event) {
	e.name = "result"
	s.hub.publish(e)
}

func (s *Server) publish(name, id, status string) {
	s.hub.publish(event{name: name, data: eventData(id, status)})
}

// eventData is the data of an event about exercise id that is not a
// result: a check began (status empty) or failed.
func eventData(id, status string) []byte {
	data, _ := json.Marshal(map[string]any{"exercise": id, "status": status})
	return data
}

// check runs the hidden tests at the learner's request.
func (s *Server) check(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exerciseOf(w, r)
	if !ok {
		return
	}
	if _, err := s.checkNow(r, ex); err != nil {
		s.message(w, r, http.StatusInternalServerError, s.printer(w, r).T("web.error.check", "Err", err))
		return
	}
	s.after(w, r, ex, "result", "")
}

// after answers a form: the script gets the fragment it shows, a browser
// without script goes back to the exercise.
func (s *Server) after(w http.ResponseWriter, r *http.Request, ex *course.Exercise, fragment, done string) {
	if !wantsFragment(r) {
		u := "/exercise/" + ex.ID
		if done != "" {
			u += "?done=" + done
		}
		http.Redirect(w, r, u+"#"+fragment, http.StatusSeeOther)
		return
	}
	s.renderExercise(w, r, ex, http.StatusOK, fragment, func(p *i18n.Printer, d *exerciseData) {
		if done != "" {
			d.Notice = doneNotice(p, done, ex)
		}
	})
}

// hint reveals the next hint; `kurs hint` counts in the same progress.
func (s *Server) hint(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exerciseOf(w, r)
	if !ok {
		return
	}
	p := s.printer(w, r)
	_, err := s.loop.NextHint(ex, p.Lang())
	if err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.progress", "Err", err))
		return
	}
	s.after(w, r, ex, "hints", "")
}

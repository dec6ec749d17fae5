package web

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/workspace"
)

// exState is what the server knows of one exercise.
type exState struct {
	// run is held while the exercise is checked: one check at a time per
	// exercise, so results arrive in the order of the saves.
	run sync.Mutex
	// waiting reports that a check triggered by a save waits for run; more
	// saves meanwhile need no check of their own, since that one reads the
	// files once it starts.
	waiting atomic.Bool
	// trying is held while a trace typed in the page runs: one try at a
	// time per exercise. A try neither waits for a check nor holds one up.
	trying sync.Mutex

	// Guarded by Server.mu.
	res *checker.Result
	at  time.Time
	seq int
	sum [sha256.Size]byte // of the files res was checked with
}

// recheck checks ex in the background after a save, unless its files are
// the ones last checked (an editor that writes twice, or the page that
// just wrote the quiz answer and checked it).
func (s *Server) recheck(ex *course.Exercise) {
	st := s.exercises[ex.ID]
	if !st.waiting.CompareAndSwap(false, true) {
		return
	}
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		st.run.Lock()
		defer st.run.Unlock()
		st.waiting.Store(false)
		s.checkIfChanged(ex, st)
	}()
}

// checkIfChanged checks ex unless its files are the ones last checked, and
// reports whether it checked. The caller holds st.run.
func (s *Server) checkIfChanged(ex *course.Exercise, st *exState) bool {
	sum := s.sourcesSum(ex)
	s.mu.Lock()
	same := st.res != nil && st.sum == sum
	s.mu.Unlock()
	if same {
		return false
	}
	_, _ = s.runCheck(s.ctx, ex, st, sum)
	return true
}

// checkNow checks ex and waits for the result.
func (s *Server) checkNow(ctx context.Context, ex *course.Exercise) (*checker.Result, error) {
	st := s.exercises[ex.ID]
	st.run.Lock()
	defer st.run.Unlock()
	return s.runCheck(ctx, ex, st, s.sourcesSum(ex))
}

// runCheck checks ex, keeps the result, records the learner's progress and
// tells the pages. The caller holds st.run.
func (s *Server) runCheck(ctx context.Context, ex *course.Exercise, st *exState, sum [sha256.Size]byte) (*checker.Result, error) {
	s.publish("checking", ex.ID, "")
	res, err := s.ck.Check(ctx, ex, s.ws.ExerciseDir(ex.ID))
	if err != nil {
		if ctx.Err() == nil {
			s.logf("web.log.check", "Exercise", ex.ID, "Err", err)
		}
		s.publish("failed", ex.ID, "")
		return nil, err
	}
	s.mu.Lock()
	st.res, st.at, st.sum = res, time.Now(), sum
	st.seq++
	seq := st.seq
	err = s.record(res)
	s.mu.Unlock()
	if err != nil {
		s.logf("web.log.progress", "Err", err)
	}
	s.publishResult(ex.ID, string(res.Status), seq)
	return res, nil
}

// record stores a result as the learner's progress, as `kurs check` does.
// The caller holds s.mu.
func (s *Server) record(res *checker.Result) error {
	p, err := s.ws.Progress()
	if err != nil {
		return err
	}
	ep := p.Of(res.Exercise)
	ep.Status, ep.Score, ep.MaxScore = string(res.Status), res.Score, res.MaxScore
	ep.Checked = time.Now().UTC().Truncate(time.Second)
	ep.Passed = ep.Passed || res.Status == checker.Pass
	return s.ws.SaveProgress(p)
}

// sourcesSum returns a digest of the files the checker reads for ex.
func (s *Server) sourcesSum(ex *course.Exercise) [sha256.Size]byte {
	h := sha256.New()
	names, _ := checker.ReadSources(s.ws.ExerciseDir(ex.ID), ex.ID)
	for _, n := range names {
		data, err := workspace.ReadFileMax(filepath.Join(s.ws.Dir, filepath.FromSlash(n)), workspace.MaxBackupFile)
		if err != nil {
			continue
		}
		sum := sha256.Sum256(data)
		h.Write([]byte(n))
		h.Write(sum[:])
	}
	var out [sha256.Size]byte
	copy(out[:], h.Sum(nil))
	return out
}

// publishResult tells the pages that a result is there.
func (s *Server) publishResult(id, status string, seq int) {
	data, _ := json.Marshal(map[string]any{"exercise": id, "status": status, "seq": seq})
	s.hub.publish(event{name: "result", data: data})
}

func (s *Server) publish(name, id, status string) {
	data, _ := json.Marshal(map[string]any{"exercise": id, "status": status})
	s.hub.publish(event{name: name, data: data})
}

// check runs the hidden tests at the learner's request.
func (s *Server) check(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exerciseOf(w, r)
	if !ok {
		return
	}
	if _, err := s.checkNow(r.Context(), ex); err != nil {
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
			d.Notice = doneNotice(p, done)
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
	s.mu.Lock()
	prog, err := s.ws.Progress()
	if err == nil {
		ep := prog.Of(ex.ID)
		if ep.HintsSeen < len(hintTexts(ex, p.Lang())) {
			ep.HintsSeen++
			err = s.ws.SaveProgress(prog)
		}
	}
	s.mu.Unlock()
	if err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.error.progress", "Err", err))
		return
	}
	s.after(w, r, ex, "hints", "")
}

package web

import (
	"net/http"
)

// reset restores the skeleton of an exercise in the reader's language;
// workspace.Reset keeps the learner's files as a backup first.
func (s *Server) reset(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exerciseOf(w, r)
	if !ok {
		return
	}
	p := s.printer(w, r)
	if err := s.ws.Inside(ex.ID); err != nil {
		s.message(w, r, http.StatusConflict, quizProblem(p, err))
		return
	}
	// The skeleton is written while no check of ex runs, as a save is.
	var backup string
	err := s.loop.Edit(ex, func() (err error) {
		backup, err = s.ws.Reset(ex, p.Lang())
		return err
	})
	if err != nil {
		s.message(w, r, http.StatusInternalServerError, p.T("web.reset.failed", "Err", err))
		return
	}
	done := "reset"
	if backup == "" {
		done = "reset_same"
	}
	s.recheck(ex)
	s.after(w, r, ex, "result", done)
}

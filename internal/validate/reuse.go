package validate

import (
	"context"
	"encoding/json"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
)

// An author validates again after each fix, and most of a validation's
// time goes to running programs whose inputs did not change. The checks
// (references, skeletons, misconceptions, mutants) are the checker's,
// which reuses their results itself when Checker.Reuse is set. The rest
// are sessions of the checker's test programs (Checker.Serve): the
// reference replayed on its traces, a misconception and the reference on
// the traces its text claims. What such a session answered is kept the
// same way and by the same rule, in the Builder's cache under
// Checker.ServeKey: the session's files, the exercise's test program,
// reference and suite, the request, the seed, the limits, the go command
// and kurs itself. Only a complete answer is kept, never a failure to
// build, start or finish (which a busy machine may cause), and nothing of
// a concurrent exercise: its results are kept only when the race
// detector's run decided them, and a session has none.

// session runs f, a session of ex's test program with files as its
// package answering request, or gives what the same session answered in
// an earlier validation, into out; t counts it. f's error is returned as
// it is, and its answer is kept only without one.
func session[T any](ctx context.Context, ck *checker.Checker, t *tally, ex *course.Exercise, files []course.File, label string, request any, f func() (T, error)) (T, error) {
	t.runs.Add(1)
	key := sessionKey(ck, ex, files, label, request)
	if key != "" {
		if data, ok := ck.Build.Recall(key); ok {
			var out T
			if json.Unmarshal(data, &out) == nil {
				t.reused.Add(1)
				return out, nil
			}
		}
	}
	out, err := f()
	if err != nil || key == "" || ctx.Err() != nil {
		return out, err
	}
	if data, err := json.Marshal(out); err == nil {
		_ = ck.Build.Remember(key, data) // a result not kept is made again
	}
	return out, nil
}

// sessionKey returns the key of a session's answer, or "" when it must
// not be reused: the checker does not reuse, or the exercise is
// concurrent.
func sessionKey(ck *checker.Checker, ex *course.Exercise, files []course.File, label string, request any) string {
	if !ck.Reuse || ck.Build == nil || ex.Concurrent {
		return ""
	}
	req, err := json.Marshal(request)
	if err != nil {
		return ""
	}
	key, err := ck.ServeKey(ex, files, append([]byte("validate "+label+" 1\n"), req...))
	if err != nil {
		return ""
	}
	return key
}

package checker

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
)

// judge returns the path of the exercise's judge: the test program built
// with the reference in place of the learner's package. It holds no
// learner code, so its verdicts can be trusted. The Builder builds it once
// per exercise content and go version and keeps it in its cache.
func (c *Checker) judge(ctx context.Context, ex *course.Exercise) (string, error) {
	mod, err := moduleFiles(ex, nil, true)
	if err != nil {
		return "", err
	}
	delete(mod, "suite.json") // the suite is read at run time, not compiled
	name, err := c.Build.Judge(ctx, ex.ID, mod)
	var ce *build.CompileError
	if errors.As(err, &ce) {
		return "", &JudgeError{Exercise: ex.ID, Detail: compileProblem(ce.Dir, ce.Output).Detail}
	}
	if errors.Is(err, build.ErrLimit) {
		return "", &JudgeError{Exercise: ex.ID}
	}
	return name, err
}

// suiteFile returns the path of a file that holds the exercise's suite as
// judges read it, kept in the Builder's cache.
func (c *Checker) suiteFile(ex *course.Exercise) (string, error) {
	data, err := json.Marshal(ex.Suite)
	if err != nil {
		return "", err
	}
	return c.Build.Suite(ex.ID, data)
}

// JudgeError reports an exercise whose reference and driver do not build:
// a mistake in the course, not in the learner's code.
type JudgeError struct {
	Exercise string
	Detail   string
}

func (e *JudgeError) Error() string {
	return "exercise " + e.Exercise + ": the reference with the test program does not build: " + e.Detail
}

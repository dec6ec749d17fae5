package explain

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
)

// Graded pairs an exercise with its result.
type Graded struct {
	Exercise *course.Exercise
	Result   *checker.Result
	// Untouched says the exercise's files were its skeleton, byte for
	// byte, when they were checked (see session.Untouched): no attempt
	// yet. Whoever checked the files knows it; code that only behaves as
	// the skeleton does is an attempt.
	Untouched bool
	// Unanswered says a class's result document marked the quiz as
	// having no case answered, for the class's table, which is drawn
	// from the document alone.
	Unanswered bool
}

// Misconception returns the misconception that g's result shows, in p's
// language, or nil. An untouched skeleton shows none, whatever its result:
// nobody has tried yet. Every explanation and format names a misconception
// through it, so that this rule is applied in one place.
func (g Graded) Misconception(p *i18n.Printer) *Named {
	if g.Untouched {
		return nil
	}
	return nameMisconception(p, g.Exercise, g.Result)
}

// Position returns the learner's file (relative to the workspace) and
// line that a result points at, or "" when it points at none: the file of
// a refused import, directive or package clause, the first position in
// compiler output, the near miss of a name the API check missed (see
// nearMissAt), the frame of the first failing test's panic, or the
// learner's innermost frame when the program crashed (see crashFrame).
// Every output that points into the learner's code asks it: the
// annotations, JUnit and the page's marked line.
func Position(res *checker.Result) (file string, line int) {
	if pr := res.Problem; pr != nil {
		if pr.File != "" {
			return pr.File, pr.Line
		}
		if pr.Kind == checker.ProblemCompile || pr.Kind == checker.ProblemAPI {
			if m := compilerPos().FindStringSubmatch(pr.Detail); m != nil {
				line, _ = strconv.Atoi(m[2])
				return m[1], line
			}
		}
		if pr.Kind == checker.ProblemCrash {
			return crashFrame(pr.Detail, res.Exercise)
		}
		return nearMissAt(pr)
	}
	if t := res.FirstFailure(); t != nil {
		return TestPosition(res, t)
	}
	return "", 0
}

// TestPosition returns the learner's file (relative to the workspace)
// and line where the failing test t of res stopped: the frame of its
// panic, or the learner's innermost frame when the program crashed during
// it; "" when it points nowhere.
func TestPosition(res *checker.Result, t *checker.Test) (file string, line int) {
	switch {
	case t.Failure != nil:
		return frame(t.Failure.Frame)
	case t.Crashed:
		return crashFrame(res.Crash, res.Exercise)
	}
	return "", 0
}

// crashFrame returns the innermost frame in the learner's code of a crash
// report as the checker keeps it (see checker.Result.Crash): the first
// "\tFILE:LINE" whose file lies in the exercise's folder. The checker has
// dropped the runtime's and the harness's frames; the folder leaves out
// anything else, so that the position is always the learner's own line.
func crashFrame(crash, exercise string) (string, int) {
	for l := range strings.SplitSeq(crash, "\n") {
		loc, ok := strings.CutPrefix(l, "\t")
		if !ok || !strings.HasPrefix(loc, exercise+"/") || strings.Contains(loc[len(exercise)+1:], "/") {
			continue
		}
		if file, line := frame(loc); strings.HasSuffix(file, ".go") && line > 0 {
			return file, line
		}
	}
	return "", 0
}

// compilerPos finds the first FILE.go:LINE[:COL]: in compiler output, which
// the checker has already made relative to the workspace. The file name
// may hold anything but a line break, a colon and a comma too
// ("we,ird:50%.go:3:5: …"): it ends at the first ".go:LINE".
var compilerPos = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^[ \t]*(\S[^\n]*?\.go):(\d+)(?::\d+)?: `) })

// frame splits the source position of a panic, as the harness reports it
// ("github.com/kurs-course/kurs/circuitbreaker/circuitbreaker.go:43"), into
// the file relative to the workspace and the line.
func frame(f string) (string, int) {
	f = strings.TrimPrefix(f, modulePrefix)
	i := strings.LastIndex(f, ":")
	if f == "" || i < 0 {
		return "", 0
	}
	line, err := strconv.Atoi(f[i+1:])
	if err != nil {
		return "", 0
	}
	return f[:i], line
}

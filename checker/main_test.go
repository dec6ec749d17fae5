package checker_test

import (
	"testing"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/testkit"
)

// testBuild is the Builder the tests share, as a front end's checks do: one
// kit and one judge per exercise, made once, and checked once.
var testBuild *build.Builder

func TestMain(m *testing.M) { testkit.Main(m, &testBuild) }

// corpusDir holds the learner submissions; see its README.md. The test
// that checks every one of them is in ./corpus.
const corpusDir = "testdata/submissions"

// The time limits of the corpus's checks, which these tests use too.
const (
	corpusTimeout = testkit.CorpusTimeout
	hangTimeout   = testkit.HangTimeout
	slack         = testkit.Slack
)

// Short names for testkit's helpers, which these tests use throughout.
var (
	loadCourse     = testkit.Course
	describe       = testkit.Describe
	assertFailure  = testkit.AssertFailure
	snapshot       = testkit.Snapshot
	processesUnder = testkit.ProcessesUnder
)

// warm checks every reference once, in one build, so that the standard
// library, the harness, a kit of every exercise, the judges and the
// references are in the cache before the checks of the tests; it returns
// the references' results (see testkit.Warm).
func warm(tb testing.TB, c *course.Course) []*checker.Result {
	tb.Helper()
	return testkit.Warm(tb, c, testBuild)
}

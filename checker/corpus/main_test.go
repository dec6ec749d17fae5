// Package corpus_test checks every learner submission of the checker's
// corpus (../testdata/submissions, see its README) and pins its verdict.
// It is a package of its own, of tests only, so that go test runs it
// beside the checker's other tests rather than after them; it sets up its
// checks as they do, with testkit.
package corpus_test

import (
	"testing"

	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/testkit"
)

// testBuild is the Builder the checks share, as a front end's checks do:
// one kit and one judge per exercise, made once, and checked once.
var testBuild *build.Builder

func TestMain(m *testing.M) { testkit.Main(m, &testBuild) }

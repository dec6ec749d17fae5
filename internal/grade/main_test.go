package grade_test

import (
	"testing"

	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/testkit"
)

// testBuild is the Builder the tests share, as kurs grade shares one for
// a whole batch: one kit of the course and one judge per exercise, made
// or checked once.
var testBuild *build.Builder

func TestMain(m *testing.M) { testkit.Main(m, &testBuild) }

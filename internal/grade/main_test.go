package grade_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/kurs-course/kurs/internal/build"
)

// testBuild is the Builder the tests share, as kurs grade shares one for
// a whole batch: one kit of the course and one judge per exercise, made
// or checked once.
var testBuild *build.Builder

func TestMain(m *testing.M) {
	b, err := build.New(build.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	testBuild = b
	code := m.Run()
	b.Close()
	os.Exit(code)
}

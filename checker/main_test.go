package checker_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/kurs-course/kurs/internal/build"
)

// testBuild is the Builder the tests share, as a front end's checks do: one
// kit and one judge per exercise, made once, and checked once.
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

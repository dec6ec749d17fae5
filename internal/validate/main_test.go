package validate

import (
	"fmt"
	"os"
	"testing"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/build"
)

// shared is the Builder of the tests' validations, which reuse one
// another's results as kurs validate run again does: many tests validate
// the same exercises with another lesson or metadata file, and each
// program of this test binary still runs once (a result is kept for the
// running binary only, see build.Self). The tests of reuse itself make
// Builders of their own.
var shared *build.Builder

func TestMain(m *testing.M) {
	b, err := build.New(build.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared = b
	code := m.Run()
	b.Close()
	os.Exit(code)
}

// reusing returns a Checker of the shared Builder that reuses results.
func reusing() *checker.Checker { return &checker.Checker{Build: shared, Reuse: true} }

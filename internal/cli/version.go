package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/grade"
)

// version is kurs's version when the Makefile stamps one with -ldflags
// "-X github.com/kurs-course/kurs/internal/cli.version=…"; else the module
// version and VCS revision that the go command records.
var version string

func versionVerb() *verb {
	v := command("version", nil, showVersion)
	v.quick = true
	return v
}

// showVersion prints kurs's version, the VCS revision it was built from
// when the go command recorded one, the Go version, and the content hash
// of the course (the built-in one, or --course), which every grading
// document names too.
func showVersion(e *env, _ *noOptions, _ []string) error {
	v, rev, goVersion := version, "", runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "" && bi.Main.Version != "" {
			v = bi.Main.Version
		}
		goVersion = bi.GoVersion
		var modified bool
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" && modified {
			rev += "+modified"
		}
	}
	if v == "" {
		v = "(devel)"
	}
	fmt.Fprintf(e.Out, "kurs %s\n", v)
	if rev != "" {
		fmt.Fprintf(e.Out, "revision %s\n", rev)
	}
	fmt.Fprintf(e.Out, "go %s\n", goVersion)
	// The built-in course is hashed as it is, without loading it, and
	// once per kurs binary: version is what scripts ask first, and it
	// should start as fast as go's.
	var hash string
	var err error
	if e.g.course == "" {
		builtIn := func() (string, error) { return grade.CourseHash(kurs.Content()) }
		if b := e.builder(); b != nil {
			hash, err = b.ForSelf("course-hash", builtIn)
		} else {
			hash, err = builtIn()
		}
	} else {
		_, hash, err = e.gradingCourse()
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Out, "course %s\n", hash)
	return nil
}

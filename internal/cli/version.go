package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/grade"
)

// buildInfo returns kurs's version (stamped, else the module's; "" when
// neither is known), the VCS revision the go command recorded ("" for
// none, "+modified" appended for a tree with changes) and the Go version.
func buildInfo() (v, rev, goVersion string) {
	v, goVersion = version, runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
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
	return v, rev, goVersion
}

// kursBuild names the running kurs as result documents record it, so
// that a document says which kurs worded its messages and merge can refuse
// shards of two builds: the version ("devel" when none is known), then
// the VCS revision (its first 12 digits) where the build recorded one. A
// build that records neither (kurs's Makefile builds with -trimpath, and
// GOFLAGS may hold -buildvcs=false), or whose tree had changes, adds the
// first 16 digits of the SHA-256 of its executable, which tells any two
// builds apart. The parts are joined with "+", as semantic versioning
// writes build metadata, so that the name is one word that text never
// breaks: "v1.2.0", "v1.2.0+0123456789ab",
// "devel+0123456789ab+modified+sha256-0123456789abcdef",
// "devel+sha256-0123456789abcdef".
func (e *env) kursBuild() string {
	v, rev, _ := buildInfo()
	name := v
	if name == "" {
		name = "devel"
	}
	rev, modified := strings.CutSuffix(rev, "+modified")
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		name += "+" + rev
	}
	if modified {
		name += "+modified"
	}
	if !modified && (v != "" || rev != "") {
		return name
	}
	// Hashed once per kurs binary: its file is tens of megabytes.
	var h string
	var err error
	if b := e.builder(); b != nil {
		h, err = b.ForSelf("executable-sha256", executableHash)
	} else {
		h, err = executableHash()
	}
	if err != nil || len(h) < 16 {
		return name
	}
	return name + "+sha256-" + h[:16]
}

// executableHash returns the SHA-256 of the running kurs's executable,
// in hex.
func executableHash() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

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
	v, rev, goVersion := buildInfo()
	if v == "" {
		v = "(devel)"
	}
	fmt.Fprintf(e.Out, "kurs %s\n", v)
	if rev != "" {
		fmt.Fprintf(e.Out, "revision %s\n", rev)
	}
	fmt.Fprintf(e.Out, "build %s\n", e.kursBuild())
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

package kurs_test

// The scripts in testdata/script run the real kurs command line the way a
// learner does: in a fresh folder, with a clean environment, reading what
// kurs prints and its exit status. See
// https://pkg.go.dev/github.com/rogpeppe/go-internal/testscript for the
// script language.
//
// Run them with
//
//	go test -run TestScript .
//	go test -run TestScript/check .      # one script
//	go test -run TestScript . -update    # rewrite cmp files from the actual output

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/kurs-course/kurs/internal/cli"
)

var updateScripts = flag.Bool("update", false, "update the cmp files in testdata/script from the actual output")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"kurs": func() {
			os.Exit(cli.Run(os.Args[1:]))
		},
	})
}

func TestScript(t *testing.T) {
	goEnv := goEnvironment(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *updateScripts,
		// [root]: the tests run as root, who may give a folder to another
		// user.
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Getuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(e *testscript.Env) error {
			// testscript starts from an almost empty environment: PATH (with
			// kurs in front), HOME=/no-home, TMPDIR inside $WORK. A learner's
			// shell has a home and a locale; KURS_LANG, LC_ALL and
			// LC_MESSAGES stay unset so that each script chooses its language.
			e.Setenv("HOME", e.WorkDir)
			e.Setenv("LANG", "C")
			// kurs serve opens no browser in a test (serve-browser.txtar
			// turns it on with an opener of its own).
			e.Setenv("KURS_NO_BROWSER", "1")
			// The checker runs `go build`: it must find the toolchain, the
			// module cache and, to be fast, the real build cache, which would
			// otherwise default to one under the new HOME.
			for _, kv := range goEnv {
				k, v, _ := strings.Cut(kv, "=")
				e.Setenv(k, v)
			}
			// Likewise kurs's own build cache and judges: shared by every
			// script, as by every check of one user.
			if dir, err := os.UserCacheDir(); err == nil && os.Getenv("KURS_CACHE") == "" {
				e.Setenv("KURS_CACHE", filepath.Join(dir, "kurs"))
			} else if v := os.Getenv("KURS_CACHE"); v != "" {
				e.Setenv("KURS_CACHE", v)
			}
			// And its bound, which make test raises so that the course's
			// programs that one package built are there for the next.
			if v := os.Getenv("KURS_CACHE_OBJECTS"); v != "" {
				e.Setenv("KURS_CACHE_OBJECTS", v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":       cmdExitCode,
			"jsonget":        cmdJSONGet,
			"gradedoc":       cmdGradeDoc,
			"waitglob":       cmdWaitGlob,
			"emptydir":       cmdEmptyDir,
			"noprocess":      cmdNoProcess,
			"waitfor":        cmdWaitFor,
			"cellwords":      cmdCellWords,
			"ttyfits":        cmdTTYFits,
			"ttywatch":       cmdTTYWatch,
			"misconceptions": cmdMisconceptions,
			"solutions":      cmdSolutions,
		},
	})
}

// goEnvironment returns GOROOT, GOPATH, GOMODCACHE and GOCACHE as the go
// command sees them for the user running the tests (GOCACHE is usually not
// set but derived from HOME, which the scripts change). testscript passes
// PATH through by itself.
func goEnvironment(t *testing.T) []string {
	t.Helper()
	vars := []string{"GOROOT", "GOPATH", "GOMODCACHE", "GOCACHE"}
	out, err := exec.Command("go", append([]string{"env"}, vars...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(vars) {
		t.Fatalf("go env printed %q", out)
	}
	var env []string
	for i, v := range vars {
		if lines[i] != "" {
			env = append(env, v+"="+lines[i])
		}
	}
	return env
}

// cmdExitCode implements `exitcode N PROG [ARGS...]`: like exec, it runs
// PROG and keeps its stdout and stderr for the next stdout, stderr or cmp,
// and it asserts that PROG exits with status N. kurs promises 1 for failing
// code and 2 for bad usage or setup; `! exec` cannot tell them apart.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// readJSONDocument reads file, which must hold exactly one JSON document
// and nothing else but white space.
func readJSONDocument(ts *testscript.TestScript, file string) (any, error) {
	data := ts.ReadFile(file)
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%s is not a JSON document: %v\n%s", file, err, data)
	}
	if s := strings.TrimSpace(data[dec.InputOffset():]); s != "" {
		return nil, fmt.Errorf("%s holds more than one JSON document; after the first comes %q", file, s)
	}
	return v, nil
}

// cmdJSONGet implements `jsonget FILE PATH...`: FILE must hold exactly one
// JSON document; for each PATH (keys and array indexes joined by dots, e.g.
// exercises.0.tests.2.status; a final "#" gives an array's length) it
// prints the value, a string without quotes, anything else as JSON, one per
// line. With `!`, it only asserts that FILE is not one JSON document.
func cmdJSONGet(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: jsonget FILE [PATH...]")
	}
	v, err := readJSONDocument(ts, args[0])
	if neg {
		if err == nil {
			ts.Fatalf("%s is one valid JSON document", args[0])
		}
		return
	}
	ts.Check(err)
	for _, path := range args[1:] {
		got, err := jsonPath(v, path)
		ts.Check(err)
		if s, ok := got.(string); ok {
			fmt.Fprintln(ts.Stdout(), s)
			continue
		}
		b, err := json.Marshal(got)
		ts.Check(err)
		fmt.Fprintln(ts.Stdout(), string(b))
	}
}

func jsonPath(v any, path string) (any, error) {
	if path == "" || path == "." {
		return v, nil
	}
	for _, key := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[key]
			if !ok {
				return nil, fmt.Errorf("jsonget %s: no key %q", path, key)
			}
			v = next
		case []any:
			if key == "#" {
				v = len(x)
				continue
			}
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("jsonget %s: %q is not an index of an array of %d", path, key, len(x))
			}
			v = x[i]
		default:
			return nil, fmt.Errorf("jsonget %s: %q: not an object or array", path, key)
		}
	}
	return v, nil
}

// gradeDoc is the result document of docs/results.md, decoded strictly.
type gradeDoc struct {
	Version   *int `json:"version"`
	Course    string
	Kurs      string
	Seed      uint64
	Status    string
	Score     *int
	MaxScore  *int `json:"max_score"`
	Exercises []struct {
		ID       string
		Status   string
		Score    *int
		MaxScore *int `json:"max_score"`
		Message  *string
		// Misconception is present only when one is recognised.
		Misconception *struct {
			ID    string
			Title string
			Maybe bool
		}
		Problem  string
		Skeleton bool
		// File and Line: where the result points, when it points somewhere.
		File  string
		Line  int
		Tests []struct {
			Name    string
			Status  string
			Step    *int
			Failure string
			Message *string
			Given   string
			File    string
			Line    int
		}
	}
}

// cmdGradeDoc implements `gradedoc FILE`: FILE must be exactly one JSON
// document with the schema of docs/results.md (no unknown fields, every field
// present, statuses pass, fail or error, scores adding up, the top-level
// status pass exactly when every exercise passes and error exactly when no
// exercise could be tested, the course's content hash and the kurs build
// named).
func cmdGradeDoc(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: gradedoc FILE")
	}
	err := checkGradeDoc(ts, args[0])
	switch {
	case neg && err == nil:
		ts.Fatalf("%s is a valid result document", args[0])
	case !neg:
		ts.Check(err)
	}
}

func checkGradeDoc(ts *testscript.TestScript, file string) error {
	if _, err := readJSONDocument(ts, file); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(ts.ReadFile(file))))
	dec.DisallowUnknownFields()
	var d gradeDoc
	if err := dec.Decode(&d); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	status := func(where, s string) error {
		if s != "pass" && s != "fail" && s != "error" {
			return fmt.Errorf("%s: status %q is not pass, fail or error", where, s)
		}
		return nil
	}
	switch {
	case d.Version == nil || *d.Version != 1:
		return fmt.Errorf("%s: version is not 1", file)
	case d.Score == nil || d.MaxScore == nil:
		return fmt.Errorf("%s: score or max_score missing", file)
	case d.Exercises == nil:
		return fmt.Errorf("%s: exercises missing", file)
	}
	if err := status("document", d.Status); err != nil {
		return err
	}
	if !strings.HasPrefix(d.Course, "sha256:") {
		return fmt.Errorf("%s: course %q is not a content hash", file, d.Course)
	}
	if d.Kurs == "" {
		return fmt.Errorf("%s: the kurs that graded is not named", file)
	}
	allPass, allError, score, maxScore := true, len(d.Exercises) > 0, 0, 0
	for i, ex := range d.Exercises {
		where := fmt.Sprintf("exercises[%d] (%s)", i, ex.ID)
		if err := status(where, ex.Status); err != nil {
			return err
		}
		switch {
		case ex.ID == "":
			return fmt.Errorf("%s: no id", where)
		case ex.Score == nil || ex.MaxScore == nil || ex.Message == nil || ex.Tests == nil:
			return fmt.Errorf("%s: score, max_score, message or tests missing", where)
		case *ex.Score < 0 || *ex.Score > *ex.MaxScore:
			return fmt.Errorf("%s: score %d outside 0..%d", where, *ex.Score, *ex.MaxScore)
		case ex.Status == "pass" && *ex.Score != *ex.MaxScore:
			return fmt.Errorf("%s: passes with %d of %d points", where, *ex.Score, *ex.MaxScore)
		case ex.Status != "pass" && *ex.Message == "":
			return fmt.Errorf("%s: status %s without a message", where, ex.Status)
		case ex.Status == "error" && len(ex.Tests) != 0 && *ex.Score != 0:
			return fmt.Errorf("%s: error but scored", where)
		case ex.Line != 0 && ex.File == "", ex.Line < 0:
			return fmt.Errorf("%s: line %d without a file", where, ex.Line)
		case ex.File != "" && (ex.Status == "pass" || path.IsAbs(ex.File) || strings.HasPrefix(path.Clean(ex.File), "..") || strings.Contains(ex.File, `\`)):
			return fmt.Errorf("%s: file %q is not a place in a failing submission's files, relative and slash-separated", where, ex.File)
		}
		failed := 0
		for j, t := range ex.Tests {
			tw := fmt.Sprintf("%s.tests[%d] (%s)", where, j, t.Name)
			if err := status(tw, t.Status); err != nil {
				return err
			}
			if t.Name == "" || t.Message == nil {
				return fmt.Errorf("%s: name or message missing", tw)
			}
			if t.Failure != "" && (t.Status == "pass" || !slices.Contains([]string{"panic", "timeout", "crash", "not_run"}, t.Failure)) {
				return fmt.Errorf("%s: failure %q in a %s test", tw, t.Failure, t.Status)
			}
			if t.Status != "pass" {
				failed++
			}
		}
		if ex.Status == "pass" && failed > 0 {
			return fmt.Errorf("%s: passes with %d failing tests", where, failed)
		}
		if ex.Status == "fail" && (len(ex.Tests) == 0 || failed == 0) {
			return fmt.Errorf("%s: fails without a failing test", where)
		}
		allPass = allPass && ex.Status == "pass"
		allError = allError && ex.Status == "error"
		score += *ex.Score
		maxScore += *ex.MaxScore
	}
	if (d.Status == "pass") != allPass {
		return fmt.Errorf("%s: top-level status %s, but every exercise passes is %v", file, d.Status, allPass)
	}
	if (d.Status == "error") != allError {
		return fmt.Errorf("%s: top-level status %s, but no exercise could be tested is %v", file, d.Status, allError)
	}
	if *d.Score != score || *d.MaxScore != maxScore {
		return fmt.Errorf("%s: score %d/%d, but the exercises add up to %d/%d", file, *d.Score, *d.MaxScore, score, maxScore)
	}
	return nil
}

package kurs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdWaitGlob waits until a file matching the glob exists: waitglob GLOB
// [TIMEOUT]. It fails after the timeout (default 30s).
func cmdWaitGlob(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: waitglob GLOB [TIMEOUT]")
	}
	timeout := 30 * time.Second
	if len(args) == 2 {
		d, err := time.ParseDuration(args[1])
		ts.Check(err)
		timeout = d
	}
	deadline := time.Now().Add(timeout)
	for {
		if m, _ := filepath.Glob(ts.MkAbs(args[0])); len(m) > 0 {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("no file matches %s after %s", args[0], timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cmdEmptyDir asserts that a folder exists and holds nothing: emptydir DIR.
func cmdEmptyDir(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: emptydir DIR")
	}
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	if neg != (len(entries) == 0) {
		return
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if neg {
		ts.Fatalf("%s is empty", args[0])
	}
	ts.Fatalf("%s holds %v", args[0], names)
}

// cmdNoProcess asserts that no running process mentions a path in its
// command line: noprocess PATH. Linux only; elsewhere it does nothing.
func cmdNoProcess(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: noprocess PATH")
	}
	if runtime.GOOS != "linux" {
		return
	}
	path := []byte(ts.MkAbs(args[0]))
	entries, err := os.ReadDir("/proc")
	ts.Check(err)
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, path) {
			ts.Fatalf("process %s still runs: %q", e.Name(), bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
		}
	}
}

package kurs_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/browsertest"
)

// cmdWaitGlob waits until a file matching the glob exists: waitglob GLOB
// [TIMEOUT]. It fails after the timeout (default 30s), stretched by the
// machine's load as browsertest.Scale says.
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
	start := time.Now()
	for {
		if m, _ := filepath.Glob(ts.MkAbs(args[0])); len(m) > 0 {
			return
		}
		if time.Since(start) > browsertest.Scale(timeout) {
			ts.Fatalf("no file matches %s after %s", args[0], time.Since(start).Round(time.Second))
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

// cmdCellWords checks that tables shown in the terminal keep their words
// whole: cellwords FILE LESSON LANG. Every word on a line of FILE that
// holds a table border (│) must be a word of the lesson's Markdown text
// in LANG, as the course embeds it; a word broken in two ("erfolgrei",
// "ch") is not. With !, it checks that some word is not.
func cmdCellWords(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: cellwords FILE LESSON LANG")
	}
	src, err := fs.ReadFile(kurs.Content(), "lessons/"+args[1]+"/"+args[2]+".md")
	ts.Check(err)
	known := map[string]bool{}
	for _, w := range cellWords(string(src)) {
		known[w] = true
	}
	var foreign []string
	for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		if !strings.Contains(line, "│") {
			continue
		}
		for _, w := range cellWords(line) {
			if !known[w] {
				foreign = append(foreign, strconv.Quote(w)+" in "+strconv.Quote(line))
			}
		}
	}
	switch {
	case neg && len(foreign) == 0:
		ts.Fatalf("every word in the tables of %s is a word of the lesson", args[0])
	case !neg && len(foreign) > 0:
		ts.Fatalf("words in the tables of %s that the lesson does not have (broken?):\n%s", args[0], strings.Join(foreign, "\n"))
	}
}

// cellWords returns the words of s without Markdown's emphasis and the
// characters that draw tables.
func cellWords(s string) []string {
	return strings.Fields(strings.NewReplacer("**", "", "*", "", "|", " ", "│", " ", "─", " ", "┌", " ", "┐", " ",
		"└", " ", "┘", " ", "├", " ", "┤", " ", "┬", " ", "┴", " ", "┼", " ").Replace(s))
}

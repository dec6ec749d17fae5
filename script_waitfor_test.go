package kurs_test

// The command kurs watch's scripts use to await its output; see
// testdata/script/watch*.txtar.

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/kurs-course/kurs/internal/browsertest"
)

// waitForDefault bounds a waitfor without a TIMEOUT on an idle machine:
// long enough for a check, short enough that a hang fails the script. A
// busy machine stretches it (browsertest.Scale).
const waitForDefault = 60 * time.Second

// cmdWaitFor implements `waitfor [-count=N] FILE REGEXP [TIMEOUT]`: it
// waits until FILE holds at least N (default 1) matches of REGEXP, in
// multi-line mode as stdout uses it, and fails after TIMEOUT (a Go
// duration, default 60s, stretched by the machine's load as
// browsertest.Scale says) with the file's content. It awaits the output of
// a background command that writes to a file, such as kurs watch, without
// guessing a sleep.
func cmdWaitFor(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! waitfor")
	}
	want := 1
	if len(args) > 0 {
		if n, ok := strings.CutPrefix(args[0], "-count="); ok {
			var err error
			if want, err = strconv.Atoi(n); err != nil || want < 1 {
				ts.Fatalf("waitfor: bad count %q", n)
			}
			args = args[1:]
		}
	}
	if len(args) != 2 && len(args) != 3 {
		ts.Fatalf("usage: waitfor [-count=N] FILE REGEXP [TIMEOUT]")
	}
	re, err := regexp.Compile("(?m)" + args[1])
	ts.Check(err)
	timeout := waitForDefault
	if len(args) == 3 {
		if timeout, err = time.ParseDuration(args[2]); err != nil {
			ts.Fatalf("waitfor: bad timeout %q", args[2])
		}
	}
	name := ts.MkAbs(args[0])
	start := time.Now()
	for {
		// Asked again each round: a load that grows meanwhile lengthens it.
		deadline := start.Add(browsertest.Scale(timeout))
		data, err := os.ReadFile(name)
		if err == nil && len(re.FindAllIndex(data, -1)) >= want {
			return
		}
		if time.Now().After(deadline) {
			got := 0
			if err == nil {
				got = len(re.FindAllIndex(data, -1))
			}
			ts.Fatalf("waitfor: %s has %d of %d matches of %q after %v:\n%s", args[0], got, want, args[1], time.Since(start).Round(time.Second), data)
		}
		// A file has no event to wait for here; a short poll keeps the
		// wait close to the moment the output arrives.
		time.Sleep(10 * time.Millisecond)
	}
}

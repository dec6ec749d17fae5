package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/kurs-course/kurs/internal/cli"
	"github.com/kurs-course/kurs/internal/sandbox"
)

// This file guards kurs's start without timing it (bench/start times it):
// every start of kurs, `kurs version` as much as each launcher a check
// starts, pays for what packages build at their initialisation. The
// tests count what the Go runtime reports under GODEBUG=inittrace=1, the
// bytes each package's initialisation allocates, which does not depend on
// the machine's load.

// Budgets, about twice what was measured when they were set (Go 1.26).
const (
	// ownInitBytes: any package of kurs; the largest took 2.8 KB.
	ownInitBytes = 8 << 10
	// allInitBytes: all packages of the test binary, kurs's dependencies
	// included (goldmark's regexps are most of it); 0.87 MB.
	allInitBytes = 1600 << 10
	// launcherInitBytes: what runs before the sandbox's launcher; 0.16 MB.
	launcherInitBytes = 320 << 10
	// versionBytes: all that `kurs version` allocates from start to end,
	// its hash of the built-in course included; 1.1 MB (2.0 MB when the
	// hash read each file whole).
	versionBytes = 1536 << 10
	// helpBytes: the same for `kurs help` in English, which parses the
	// English catalog of its area; 1.6 MB (2.4 MB when it parsed all).
	helpBytes = 2 << 20
)

const module = "github.com/kurs-course/kurs"

// runKurs, when set, makes the test binary kurs: TestMain runs the
// arguments as kurs would and reports on stderr what the run allocated.
const runKurs = "KURS_TEST_RUN_KURS"

func TestMain(m *testing.M) {
	if os.Getenv(runKurs) == "1" {
		code := cli.Run(os.Args[1:])
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Fprintf(os.Stderr, "total-alloc %d\n", ms.TotalAlloc)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// initTrace is one package's initialisation as GODEBUG=inittrace=1
// reports it.
type initTrace struct {
	pkg    string
	bytes  int64
	allocs int64
}

// parseInitTrace reads the inittrace lines of out:
// "init PKG @0.5 ms, 0.01 ms clock, 232 bytes, 6 allocs".
func parseInitTrace(t *testing.T, out string) []initTrace {
	t.Helper()
	var traces []initTrace
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.ParseInt(f[7], 10, 64)
		a, err2 := strconv.ParseInt(f[9], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("unexpected inittrace line %q", sc.Text())
		}
		traces = append(traces, initTrace{f[1], b, a})
	}
	return traces
}

// kurs runs the test binary as kurs with args under inittrace and returns
// its standard error.
func kurs(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = t.TempDir() // no workspace
	cmd.Env = append(os.Environ(), runKurs+"=1", "GODEBUG=inittrace=1", "KURS_LANG=en")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kurs %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stderr.String()
}

// TestNoHeavyInit: no package of kurs builds anything sizeable at its
// initialisation (a regexp, a template, a Markdown parser, a catalog):
// it is built on first use instead, by the verbs that need it. And the
// initialisation of everything kurs links stays within a budget, so a new
// dependency that does much at its start is noticed.
func TestNoHeavyInit(t *testing.T) {
	traces := parseInitTrace(t, kurs(t, "version"))
	ours := 0
	var total int64
	for _, tr := range traces {
		total += tr.bytes
		if tr.pkg != module && !strings.HasPrefix(tr.pkg, module+"/") {
			continue
		}
		ours++
		if tr.bytes > ownInitBytes {
			t.Errorf("%s allocates %d bytes (%d allocations) when it is initialised, more than %d: every start of kurs pays for that, every launcher of a check included. Build what its package-level variables hold on first use (sync.OnceValue).",
				tr.pkg, tr.bytes, tr.allocs, ownInitBytes)
		}
	}
	if ours < 5 {
		t.Fatalf("inittrace reported %d packages of kurs in %d lines; did its format change?", ours, len(traces))
	}
	if total > allInitBytes {
		t.Errorf("the initialisation of all packages allocates %d bytes, more than %d. The largest:\n%s", total, allInitBytes, largest(traces))
	}
}

// largest lists the ten packages whose initialisation allocates most.
func largest(traces []initTrace) string {
	s := append([]initTrace(nil), traces...)
	var b strings.Builder
	for range min(10, len(s)) {
		k := 0
		for j := range s {
			if s[j].bytes > s[k].bytes {
				k = j
			}
		}
		fmt.Fprintf(&b, "  %8d bytes  %s\n", s[k].bytes, s[k].pkg)
		s = append(s[:k], s[k+1:]...)
	}
	return b.String()
}

// TestVersionIsLight: kurs version, which scripts call first, and kurs
// help allocate little from start to end: the hash of the built-in course
// streams the files rather than copying the course onto the heap.
func TestVersionIsLight(t *testing.T) {
	for _, c := range []struct {
		args   []string
		budget int64
	}{{[]string{"version"}, versionBytes}, {[]string{"help"}, helpBytes}} {
		args := c.args
		out := kurs(t, args...)
		i := strings.LastIndex(out, "total-alloc ")
		if i < 0 {
			t.Fatalf("kurs %s reported no total:\n%s", args[0], out)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(out[i+len("total-alloc "):]), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if n > c.budget {
			t.Errorf("kurs %s allocates %d bytes from start to end, more than %d", args[0], n, c.budget)
		}
	}
}

// TestLauncherStartsEarly: the sandbox's launcher, which every check
// starts, runs before most of kurs is initialised, and what is
// initialised before it stays small.
func TestLauncherStartsEarly(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no launcher on " + runtime.GOOS)
	}
	truePath, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true program to launch")
	}
	cmd := sandbox.CommandFrom(context.Background(), os.Args[0], sandbox.Policy{}, truePath)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("launcher: %v\n%s", err, out)
	}
	traces := parseInitTrace(t, string(out))
	var total int64
	for _, tr := range traces {
		total += tr.bytes
		if strings.HasPrefix(tr.pkg, module+"/") && tr.pkg != module+"/internal/sandbox" && tr.pkg != module+"/internal/sandbox/launch" {
			// The launcher runs in the sandbox package's init, which the
			// trace does not list: it never returns.
			t.Errorf("%s is initialised before the launcher runs", tr.pkg)
		}
	}
	if len(traces) == 0 {
		t.Fatalf("no inittrace from the launcher:\n%s", out)
	}
	if total > launcherInitBytes {
		t.Errorf("before the launcher runs, initialisation allocates %d bytes, more than %d. The largest:\n%s", total, launcherInitBytes, largest(traces))
	}
}

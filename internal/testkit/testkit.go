// Package testkit holds what the tests of several packages share when they
// check learner code: the Builder a test binary's checks share, the
// check of every reference that fills the cache first, the time limits of
// the corpus's checks, and assertions on results and files.
//
// It is for tests only; nothing that kurs links imports it.
package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
)

// CorpusTimeout is the time limit of a corpus check: long enough for the
// reference on a loaded machine, short enough that the endless loops of
// the hostile cases do not make the suite slow.
const CorpusTimeout = 6 * time.Second

// HangTimeout is the time limit of the checks whose verdict comes from
// the time limit (see Endless): an endless loop ends the same way after a
// shorter limit, and it keeps a processor busy for all of it.
const HangTimeout = 3 * time.Second

// Slack is how much longer than its time limit a check may take in all
// before a test calls it hung. It is a hang detector, not a speed test:
// the build and the wait for the judge count too, and on a loaded 2-core
// CI runner a race build alone has taken 15 s. Speed is measured by
// bench/check, never here.
const Slack = 2 * time.Minute

// Main is a test binary's TestMain: it makes the Builder that the binary's
// tests share, as a front end's checks do (one kit and one judge per
// exercise, made or checked once), stores it in *b, runs the tests, closes
// the Builder and exits.
func Main(m *testing.M, b **build.Builder) {
	nb, err := build.New(build.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	*b = nb
	code := m.Run()
	nb.Close()
	os.Exit(code)
}

// Root returns the repository's root folder: the nearest folder at or
// above the working directory (a test's package folder) with a go.mod.
func Root(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	require.NoError(tb, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		require.NotEqual(tb, dir, up, "no go.mod above the working directory")
		dir = up
	}
}

// Course reads the repository's course.
func Course(tb testing.TB) *course.Course {
	tb.Helper()
	c, err := course.Load(os.DirFS(Root(tb)))
	require.NoError(tb, err)
	return c
}

// Corpus returns the folder of the learner submissions that the checker's
// tests and others grade (checker/testdata/submissions; see its README).
func Corpus(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(Root(tb), "checker", "testdata", "submissions")
}

var (
	warmOnce   sync.Once
	references []*checker.Result
	warmErr    error
)

// Warm checks every reference of c once per test binary, in one build
// with b, so that the standard library, the harness, a kit of every
// exercise, the judges and the references are in the cache before the
// checks of the tests. It returns the results, in the order of the
// course's exercises; every later call returns the first call's.
func Warm(tb testing.TB, c *course.Course, b *build.Builder) []*checker.Result {
	tb.Helper()
	warmOnce.Do(func() {
		references, warmErr = warm(c, b)
	})
	require.NoError(tb, warmErr, "checking the references")
	return references
}

func warm(c *course.Course, b *build.Builder) ([]*checker.Result, error) {
	dir, err := os.MkdirTemp("", "kurs-warm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var jobs []checker.Job
	for _, ex := range c.Exercises {
		files, err := ex.Solution()
		if err != nil {
			return nil, err
		}
		exDir := filepath.Join(dir, ex.ID)
		for _, f := range files {
			p := filepath.Join(exDir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				return nil, err
			}
		}
		jobs = append(jobs, checker.Job{Exercise: ex, Dir: exDir})
	}
	return (&checker.Checker{Build: b, Timeout: 3 * CorpusTimeout}).CheckAll(context.Background(), jobs)
}

// Want is a corpus case's want.json.
type Want struct {
	// Why says in one sentence what is wrong or special.
	Why string `json:"why"`
	// Exercises holds the verdict of each exercise the case holds.
	Exercises map[string]checker.Status `json:"exercises"`
}

// ReadWant reads a corpus case's want.json and checks that it says why,
// names exactly the case's exercise folders, and only verdicts.
func ReadWant(tb testing.TB, caseDir string) Want {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(caseDir, "want.json"))
	require.NoError(tb, err)
	var w Want
	require.NoError(tb, json.Unmarshal(data, &w), caseDir)
	require.NotEmpty(tb, w.Why, "%s: want.json needs a why", caseDir)
	require.NotEmpty(tb, w.Exercises, caseDir)
	var folders []string
	entries, err := os.ReadDir(caseDir)
	require.NoError(tb, err)
	for _, e := range entries {
		if e.IsDir() {
			folders = append(folders, e.Name())
		}
	}
	ids := make([]string, 0, len(w.Exercises))
	for id, s := range w.Exercises {
		ids = append(ids, id)
		require.Contains(tb, []checker.Status{checker.Pass, checker.Fail, checker.Error}, s, "%s: verdict of %s", caseDir, id)
	}
	slices.Sort(ids)
	require.Equal(tb, folders, ids, "%s: exercise folders and want.json differ", caseDir)
	return w
}

// Slow says whether a corpus case spends its time limit on purpose (a
// hang, a memory bomb, a stack overflow), by its name: such a case is
// best checked alone, so that nothing waits for its limit.
func Slow(name string) bool {
	return slices.ContainsFunc([]string{"busy", "wait-for-token", "memory-bomb", "stack-overflow", "hang", "spin", "sleep", "deadlock", "blocks",
		"blocking-channel", "lock-held"},
		func(s string) bool { return strings.Contains(name, s) })
}

// Endless says whether a corpus case is a slow one that loops or waits
// until the time limit: a shorter limit (HangTimeout) ends it the same
// way. A memory bomb or a stack overflow must meet its own limit first.
func Endless(name string) bool {
	return slices.ContainsFunc([]string{"busy", "wait-for-token", "hang", "spin", "sleep", "blocking-channel", "lock-held"},
		func(s string) bool { return strings.Contains(name, s) })
}

// Describe formats a result for a failure message.
func Describe(res *checker.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "status %s, score %d/%d, killed %v, truncated %v, duration %s\n", res.Status, res.Score, res.MaxScore, res.Killed, res.Truncated, res.Duration)
	if res.Problem != nil {
		fmt.Fprintf(&b, "problem %+v\n", *res.Problem)
	}
	if res.Crash != "" {
		fmt.Fprintf(&b, "crash %.300s\n", res.Crash)
	}
	for _, tr := range res.Tests {
		fmt.Fprintf(&b, "  %-45s %s missing=%v", tr.Name, tr.Status, tr.Missing)
		if tr.Failure != nil {
			data, _ := json.Marshal(tr.Failure)
			fmt.Fprintf(&b, " %.300s", data)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// AssertFailure checks that a failed test of res says where the learner's
// code departed, so that feedback can show it.
func AssertFailure(t *testing.T, tr *checker.Test, res *checker.Result) {
	t.Helper()
	assert.Equal(t, checker.Fail, tr.Status)
	if tr.Failure == nil {
		// Only a program that died or was killed leaves a test without a
		// result.
		assert.True(t, tr.Missing, "test %s failed without a failure", tr.Name)
		assert.True(t, res.Killed || res.Crash != "", "test %s sent no result, yet the program was neither killed nor crashed", tr.Name)
		return
	}
	f := tr.Failure
	assert.False(t, f.Pass, tr.Name)
	switch f.Kind {
	case harness.Mismatch:
		assert.NotEmpty(t, f.Call, "%s: call", tr.Name)
		assert.NotEqual(t, f.Want, f.Got, "%s: a mismatch with want = got", tr.Name)
		assert.True(t, f.Want != (harness.Result{}) || f.Got != (harness.Result{}), tr.Name)
	case harness.Panicked:
		assert.NotEmpty(t, f.Call, "%s: call", tr.Name)
		assert.NotEmpty(t, f.Panic, "%s: panic value", tr.Name)
		assert.Regexp(t, `/[^/]+\.go:\d+$`, f.Frame, "%s: the learner's frame", tr.Name)
	case harness.Timeout:
		assert.NotEmpty(t, f.Call, "%s: call", tr.Name)
	case harness.Quiz:
		assert.Positive(t, f.Case, tr.Name)
	default:
		t.Errorf("test %s: unknown failure kind %q", tr.Name, f.Kind)
	}
	if f.Kind != harness.Quiz {
		done := len(f.Done) + 1
		if f.Step == 0 {
			done--
		}
		assert.Equal(t, f.Step, done, "%s: Done holds the steps before the failing one", tr.Name)
	}
}

// Snapshot returns every file and folder under dir with its mode and
// contents, to show that something left them alone.
func Snapshot(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, name)
		v := info.Mode().String()
		if d.Type().IsRegular() {
			data, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			v += " " + string(data)
		}
		m[rel] = v
		return nil
	})
	require.NoError(tb, err)
	return m
}

// ProcessesUnder returns the command lines of running processes that
// mention dir, e.g. a test program built below it. It reads /proc, so it
// works on Linux only.
func ProcessesUnder(tb testing.TB, dir string) []string {
	tb.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(tb, err)
	var found []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(data, []byte(dir)) {
			continue
		}
		found = append(found, e.Name()+": "+strings.ReplaceAll(string(bytes.TrimRight(data, "\x00")), "\x00", " "))
	}
	return found
}

// ValidJUnit checks JUnit documents, by name, against the schema of what
// Jenkins xunit accepts (internal/report/testdata/junit.xsd) with
// xmllint, as CI servers read what kurs grade --format junit writes.
// Without xmllint it skips, except in CI (CI set), where it fails.
func ValidJUnit(t *testing.T, docs map[string][]byte) {
	t.Helper()
	lint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xmllint is missing, and CI is set: the JUnit schema test must run in CI (apt-get install -y libxml2-utils)")
		}
		t.Skip("skipping: xmllint is not installed (apt-get install -y libxml2-utils); in CI it is required")
	}
	require.NotEmpty(t, docs, "no JUnit to validate")
	dir := t.TempDir()
	args := []string{"--noout", "--nonet", "--schema", filepath.Join(Root(t), "internal", "report", "testdata", "junit.xsd")}
	names := make([]string, 0, len(docs))
	for name := range docs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		f := filepath.Join(dir, strings.ReplaceAll(name, "/", "--")+".xml")
		require.NoError(t, os.WriteFile(f, docs[name], 0o644))
		args = append(args, f)
	}
	out, err := exec.Command(lint, args...).CombinedOutput()
	require.NoError(t, err, "JUnit that the schema rejects:\n%s", out)
}

// PrivateBuilder returns a Builder of a cache of the test's own whose go
// build cache, kits and judges are the shared ones (the folders a cache
// may share): nothing of the standard library is compiled again, no judge
// or kit made again, and what it keeps of the checks (results, objects)
// and what it counts (Stats) are its own.
func PrivateBuilder(t *testing.T) *build.Builder {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, os.Mkdir(dir, 0o700))
	shared, _ := build.DefaultDir()
	for _, sub := range []string{"go-build", "kits", "judges"} {
		require.NoError(t, os.MkdirAll(filepath.Join(shared, sub), 0o700))
		require.NoError(t, os.Symlink(filepath.Join(shared, sub), filepath.Join(dir, sub)))
	}
	b, err := build.New(build.Options{Dir: dir, TempDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	return b
}

package checker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/report"
)

// corpusDir holds the learner submissions; see its README.md.
const corpusDir = "testdata/submissions"

// corpusTimeout is the time limit of a corpus check: long enough for the
// reference on a loaded machine, short enough that the endless loops of the
// hostile cases do not make the suite slow.
const corpusTimeout = 6 * time.Second

// hangTimeout is the time limit of the corpus cases whose verdict comes
// from the time limit (see endless): an endless loop ends the same way
// after a shorter limit, and it keeps a processor busy for all of it.
const hangTimeout = 3 * time.Second

// slack is how much longer than its time limit a check may take in all
// before a test calls it hung. It is a hang detector, not a speed test:
// the build and the wait for the judge count too, and on a loaded 2-core
// CI runner a race build alone has taken 15 s. Speed is measured by
// bench/check, never here.
const slack = 2 * time.Minute

// want is a case's want.json.
type want struct {
	Why       string                    `json:"why"`
	Exercises map[string]checker.Status `json:"exercises"`
}

// problemWant pins the Problem of an error verdict where the case is clear.
type problemWant struct {
	kind checker.ProblemKind
	file string // relative to the workspace; "" means not checked
	line int    // 0 means not checked
	// detail must equal Detail when exact, else be contained in it.
	detail string
	exact  bool
}

// problems pins the Problem of every error verdict of the corpus, keyed by
// case/exercise.
var problems = map[string]problemWant{
	"cb-error-missing-method/circuitbreaker":          {kind: checker.ProblemAPI, detail: "State"},
	"cb-error-syntax/circuitbreaker":                  {kind: checker.ProblemCompile, detail: "circuitbreaker/circuitbreaker.go:27"},
	"cb-error-wrong-signature/circuitbreaker":         {kind: checker.ProblemAPI, detail: "int64"},
	"hostile-aliased-imports/tokenbucket":             {kind: checker.ProblemImport, file: "tokenbucket/tokenbucket.go", line: 5, detail: "net", exact: true},
	"hostile-go-embed/bulkheadquiz":                   {kind: checker.ProblemImport, file: "bulkheadquiz/bulkheadquiz.go", line: 4, detail: "embed", exact: true},
	"hostile-import-c/tokenbucket":                    {kind: checker.ProblemImport, file: "tokenbucket/tokenbucket.go", line: 7, detail: "C", exact: true},
	"hostile-import-os/circuitbreaker":                {kind: checker.ProblemImport, file: "circuitbreaker/circuitbreaker.go", line: 5, detail: "os", exact: true},
	"hostile-import-os-exec/tokenbucket":              {kind: checker.ProblemImport, file: "tokenbucket/tokenbucket.go", line: 3, detail: "os/exec", exact: true},
	"hostile-import-reflect/circuitbreaker":           {kind: checker.ProblemImport, file: "circuitbreaker/circuitbreaker.go", line: 3, detail: "reflect", exact: true},
	"hostile-init-endless-loop/tokenbucket":           {kind: checker.ProblemTimeout},
	"hostile-init-panic/tokenbucket":                  {kind: checker.ProblemCrash, detail: "capacity must be positive"},
	"hostile-linkname-without-unsafe/circuitbreaker":  {kind: checker.ProblemDirective, file: "circuitbreaker/clock.go", line: 6, detail: "go:linkname", exact: true},
	"hostile-os-in-second-file/circuitbreaker":        {kind: checker.ProblemImport, file: "circuitbreaker/zz_helpers.go", line: 4, detail: "os", exact: true},
	"hostile-unsafe-linkname/circuitbreaker":          {kind: checker.ProblemImport, file: "circuitbreaker/circuitbreaker.go", line: 4, detail: "unsafe", exact: true},
	"mixed-verdicts/tokenbucket":                      {kind: checker.ProblemCompile, detail: "tokenbucket/tokenbucket.go:15"},
	"quiz-error-wrong-name/bulkheadquiz":              {kind: checker.ProblemAPI, detail: "Answer"},
	"tb-error-wrong-package/tokenbucket":              {kind: checker.ProblemPackage, file: "tokenbucket/tokenbucket.go", line: 1, detail: "ratelimit", exact: true},
	"hostile-package-main-second-file/circuitbreaker": {kind: checker.ProblemPackage, file: "circuitbreaker/main.go", line: 1, detail: "main", exact: true},
	"hostile-not-utf8/tokenbucket":                    {kind: checker.ProblemNotUTF8, file: "tokenbucket/tokenbucket.go", line: 3},
	"backoff-error-own-random/backoff":                {kind: checker.ProblemImport, file: "backoff/backoff.go", line: 5, detail: "math/rand/v2", exact: true},
	"lbquiz-error-two-answers/lbquiz":                 {kind: checker.ProblemAPI, detail: "Answer"},
	"hostile-import-net/circuitbreaker":               {kind: checker.ProblemImport, file: "circuitbreaker/circuitbreaker.go", line: 3, detail: "net", exact: true},
	"hostile-import-runtime/circuitbreaker":           {kind: checker.ProblemImport, file: "circuitbreaker/circuitbreaker.go", line: 3, detail: "runtime", exact: true},
	"hostile-init-blocks/tokenbucket":                 {kind: checker.ProblemCrash, detail: "deadlock"},
	"hostile-forged-then-panic/circuitbreaker":        {kind: checker.ProblemCrash, detail: "panic: done"},
}

// loadCourse reads the repository's course.
func loadCourse(tb testing.TB) *course.Course {
	tb.Helper()
	c, err := course.Load(os.DirFS(".."))
	require.NoError(tb, err)
	return c
}

var (
	warmOnce sync.Once
	// references are the results of warm's check of every reference, in
	// the order of the course's exercises; TestReferencePasses checks them.
	references []*checker.Result
	warmErr    error
)

// warm checks every reference once, in one build, so that the standard
// library, the harness, a kit of every exercise, the judges and the
// references are in the cache before the checks of the tests.
func warm(tb testing.TB, c *course.Course) {
	tb.Helper()
	warmOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kurs-warm-")
		if err != nil {
			warmErr = err
			return
		}
		defer os.RemoveAll(dir)
		var jobs []checker.Job
		for _, ex := range c.Exercises {
			files, err := ex.Solution()
			if err != nil {
				warmErr = err
				return
			}
			exDir := filepath.Join(dir, ex.ID)
			for _, f := range files {
				p := filepath.Join(exDir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					warmErr = err
					return
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					warmErr = err
					return
				}
			}
			jobs = append(jobs, checker.Job{Exercise: ex, Dir: exDir})
		}
		references, warmErr = (&checker.Checker{Build: testBuild, Timeout: 3 * corpusTimeout}).CheckAll(context.Background(), jobs)
	})
	require.NoError(tb, warmErr, "checking the references")
}

// verdicts collects expected and actual verdicts for the table that
// TestCorpus logs at the end, and every case's JUnit.
type verdicts struct {
	mu    sync.Mutex
	rows  []string
	junit map[string][]byte // by case/exercise
}

func (v *verdicts) add(name string, want, got checker.Status, d time.Duration, junit []byte) {
	mark := ""
	if want != got {
		mark = "  <-- differs"
	}
	v.mu.Lock()
	v.rows = append(v.rows, fmt.Sprintf("%-55s want %-5s got %-5s %5.2fs%s", name, want, got, d.Seconds(), mark))
	if v.junit == nil {
		v.junit = map[string][]byte{}
	}
	v.junit[name] = junit
	v.mu.Unlock()
}

// validJUnit checks the JUnit of every case against the schema of what
// Jenkins xunit accepts (internal/report/testdata/junit.xsd), with
// xmllint: the results of every exercise of the course, hostile ones
// among them, as kurs grade --format junit writes them. Without xmllint
// it skips, except in CI.
func validJUnit(t *testing.T, docs map[string][]byte) {
	t.Helper()
	lint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xmllint is missing, and CI is set: the JUnit schema test must run in CI (apt-get install -y libxml2-utils)")
		}
		t.Skip("skipping: xmllint is not installed (apt-get install -y libxml2-utils); in CI it is required")
	}
	dir := t.TempDir()
	args := []string{"--noout", "--nonet", "--schema", filepath.Join("..", "internal", "report", "testdata", "junit.xsd")}
	for _, name := range sortedKeys(docs) {
		f := filepath.Join(dir, strings.ReplaceAll(name, "/", "--")+".xml")
		require.NoError(t, os.WriteFile(f, docs[name], 0o644))
		args = append(args, f)
	}
	out, err := exec.Command(lint, args...).CombinedOutput()
	require.NoError(t, err, "JUnit that the schema rejects:\n%s", out)
	t.Logf("%d corpus results, JUnit valid against the schema", len(docs))
}

// TestCorpus checks every case of the corpus and pins its verdict, for
// errors its problem, and holds the JUnit of every result to the schema.
// Most cases are checked in rounds with CheckAll,
// as grading checks a submission: round k puts the k-th case of every
// exercise into one build, so right, wrong, refused and non-compiling
// exercises share a build and each must still get the verdict it gets
// alone. The cases that crash during initialisation share rounds of their
// own: CheckAll must then check each exercise alone, and each crash stays
// its own exercise's. The cases that spend their time limit on purpose
// (see slow, and a hang during initialisation) are checked alone with
// Check, in parallel, so that no round waits for them. So are the cases
// of concurrent exercises: their race detector's build is the go
// command's, of the whole module, and in a round it would compile every
// other exercise of the round again with the detector (warm's check of
// the references puts a concurrent exercise into one build with all
// others).
func TestCorpus(t *testing.T) {
	c := loadCourse(t)
	warm(t, c)
	entries, err := os.ReadDir(corpusDir)
	require.NoError(t, err)

	table := &verdicts{}
	seen := map[string]bool{}
	var normal, faults, alone, concurrent []corpusCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		caseDir := filepath.Join(corpusDir, name)
		w := readWant(t, caseDir)
		for _, id := range sortedKeys(w.Exercises) {
			seen[name+"/"+id] = true
			ex, ok := c.Exercise(id)
			require.True(t, ok, "%s: want.json names unknown exercise %s", name, id)
			k := corpusCase{name: name, ex: ex, dir: filepath.Join(caseDir, id), want: w.Exercises[id]}
			switch pw := problems[name+"/"+id]; {
			case slow(name) || pw.kind == checker.ProblemTimeout:
				alone = append(alone, k)
			case pw.kind == checker.ProblemCrash:
				faults = append(faults, k)
			case ex.Concurrent:
				concurrent = append(concurrent, k)
			default:
				normal = append(normal, k)
			}
		}
	}
	require.Greater(t, len(rounds(faults)[0]), 1, "no two cases crash during initialisation: a round that holds such a crash is untested")
	// Every check works below tmp; afterwards nothing of it may be left,
	// running or on disk, and the submissions must be untouched.
	tmp := t.TempDir()
	before := snapshot(t, corpusDir)
	t.Run("cases", func(t *testing.T) {
		for i, round := range append(rounds(normal), rounds(faults)...) {
			t.Run(fmt.Sprintf("round%02d", i), func(t *testing.T) {
				t.Parallel()
				checkRound(t, round, table, tmp, 3*corpusTimeout)
			})
		}
		for _, k := range concurrent {
			t.Run(k.name+"/"+k.ex.ID, func(t *testing.T) {
				t.Parallel()
				checkRound(t, []corpusCase{k}, table, tmp, 3*corpusTimeout)
			})
		}
		for _, k := range alone {
			limit := corpusTimeout
			if endless(k.name) || problems[k.name+"/"+k.ex.ID].kind == checker.ProblemTimeout {
				limit = hangTimeout
			}
			t.Run(k.name+"/"+k.ex.ID, func(t *testing.T) {
				t.Parallel()
				checkRound(t, []corpusCase{k}, table, tmp, limit)
			})
		}
	})
	if runtime.GOOS == "linux" {
		assert.Empty(t, processesUnder(t, tmp), "processes of the checks are still running")
	}
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "the checks left files in their temporary directory")
	assert.Equal(t, before, snapshot(t, corpusDir), "the checks changed the submissions")
	for key := range problems {
		assert.True(t, seen[key], "problems names %s, which the corpus does not hold", key)
	}
	sort.Strings(table.rows)
	t.Logf("verdicts (case/exercise, want, got, duration):\n%s", strings.Join(table.rows, "\n"))
	t.Run("junit validates", func(t *testing.T) { validJUnit(t, table.junit) })
}

// corpusCase is one exercise of one case of the corpus.
type corpusCase struct {
	name string // the case's folder
	ex   *course.Exercise
	dir  string // the exercise's folder in the case
	want checker.Status
}

// rounds splits cases into rounds that hold each exercise once at most:
// round k holds the k-th case of every exercise.
func rounds(cases []corpusCase) [][]corpusCase {
	var out [][]corpusCase
	n := map[string]int{}
	for _, k := range cases {
		i := n[k.ex.ID]
		n[k.ex.ID]++
		if i == len(out) {
			out = append(out, nil)
		}
		out[i] = append(out[i], k)
	}
	return out
}

// checkRound checks the cases of round in one build, each with the time
// limit timeout: with Check when it is a single case, else with CheckAll.
// Each case is a subtest of its own, named case/exercise.
//
// Timeout: the rounds run side by side, each with up to twelve programs
// and judges, and a stress test wants the processor for a while: more
// time than one check alone needs. The cases that spend their limit on
// purpose are checked with the limit a check alone gets, or with
// hangTimeout when they loop until it.
func checkRound(t *testing.T, round []corpusCase, table *verdicts, tmp string, timeout time.Duration) {
	ck := &checker.Checker{Build: testBuild, Timeout: timeout, TempDir: tmp}
	var results []*checker.Result
	start := time.Now()
	if len(round) == 1 {
		res, err := ck.Check(context.Background(), round[0].ex, round[0].dir)
		require.NoError(t, err)
		results = []*checker.Result{res}
	} else {
		jobs := make([]checker.Job, len(round))
		for i, k := range round {
			jobs[i] = checker.Job{Exercise: k.ex, Dir: k.dir}
		}
		var err error
		results, err = ck.CheckAll(context.Background(), jobs)
		require.NoError(t, err)
		require.Len(t, results, len(round))
	}
	// A hang detector, not a speed test: every exercise of a round may
	// use its limit, once in the round and once alone.
	assert.LessOrEqual(t, time.Since(start), time.Duration(2*len(round))*ck.Timeout+slack, "the check did not end")
	for i, k := range round {
		t.Run(k.name+"/"+k.ex.ID, func(t *testing.T) {
			checkCase(t, k.ex, k.name, k.want, results[i], table)
		})
	}
}

// readWant reads a case's want.json and checks that it names exactly the
// case's exercise folders.
func readWant(t *testing.T, caseDir string) want {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(caseDir, "want.json"))
	require.NoError(t, err)
	var w want
	require.NoError(t, json.Unmarshal(data, &w), caseDir)
	require.NotEmpty(t, w.Why, "%s: want.json needs a why", caseDir)
	require.NotEmpty(t, w.Exercises, caseDir)
	var folders []string
	entries, err := os.ReadDir(caseDir)
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() {
			folders = append(folders, e.Name())
		}
	}
	require.Equal(t, folders, sortedKeys(w.Exercises), "%s: exercise folders and want.json differ", caseDir)
	for id, s := range w.Exercises {
		require.Contains(t, []checker.Status{checker.Pass, checker.Fail, checker.Error}, s, "%s: verdict of %s", caseDir, id)
	}
	return w
}

func checkCase(t *testing.T, ex *course.Exercise, name string, wantStatus checker.Status, res *checker.Result, table *verdicts) {
	require.NotNil(t, res)
	var junit bytes.Buffer
	require.NoError(t, report.JUnit(&junit, i18n.New("en"), []report.Graded{{Exercise: ex, Result: res}},
		report.Run{Course: "sha256:c0ffee", Seed: res.Seed, Dir: "submissions/" + name}))
	table.add(name+"/"+ex.ID, wantStatus, res.Status, res.Duration, junit.Bytes())

	assert.Equal(t, ex.ID, res.Exercise)
	assert.Equal(t, ex.Points, res.MaxScore)
	if !assert.Equal(t, wantStatus, res.Status, "verdict; result:\n%s", describe(res)) {
		return
	}
	en := report.Message(i18n.New("en"), ex, res)
	de := report.Message(i18n.New("de"), ex, res)
	assert.NotEmpty(t, en)
	assert.NotEmpty(t, de)
	assert.NotEqual(t, en, de, "the English and German messages are the same")
	for _, m := range []string{en, de} {
		assert.NotRegexp(t, missingID, m, "a message id is missing from a catalog")
	}

	switch wantStatus {
	case checker.Pass:
		assert.Equal(t, res.MaxScore, res.Score)
		assert.Nil(t, res.Problem)
		assert.Len(t, res.Tests, len(ex.Suite.Tests))
		for _, tr := range res.Tests {
			assert.Equal(t, checker.Pass, tr.Status, tr.Name)
		}
	case checker.Fail:
		assert.Nil(t, res.Problem)
		assert.Less(t, res.Score, res.MaxScore)
		assert.Len(t, res.Tests, len(ex.Suite.Tests))
		first := res.FirstFailure()
		require.NotNil(t, first)
		assertFailure(t, first, res)
	case checker.Error:
		assert.Zero(t, res.Score)
		require.NotNil(t, res.Problem)
		assert.NotContains(t, res.Problem.Detail, os.TempDir()+string(filepath.Separator), "a temporary path leaks into the problem")
		assert.NotContains(t, res.Problem.Detail, "kurs-check-", "a temporary path leaks into the problem")
		assert.NotContains(t, en, "kurs-check-")
		pw, ok := problems[name+"/"+ex.ID]
		if !ok {
			t.Logf("no expectation for the problem of %s/%s: %+v", name, ex.ID, *res.Problem)
			return
		}
		p := res.Problem
		assert.Equal(t, pw.kind, p.Kind, "problem: %+v", *p)
		switch p.Kind {
		case checker.ProblemImport, checker.ProblemDirective, checker.ProblemPackage:
			assert.True(t, strings.HasPrefix(p.File, ex.ID+"/"), "the problem names the learner's file: %+v", *p)
			assert.Positive(t, p.Line, "the problem names the line: %+v", *p)
			assert.NotEmpty(t, p.Detail)
		case checker.ProblemCompile, checker.ProblemAPI:
			assert.NotEmpty(t, p.Detail, "the compiler's message")
		}
		if pw.file != "" {
			assert.Equal(t, pw.file, p.File, "problem: %+v", *p)
		}
		if pw.line != 0 {
			assert.Equal(t, pw.line, p.Line, "problem: %+v", *p)
		}
		if pw.exact {
			assert.Equal(t, pw.detail, p.Detail)
		} else {
			assert.Contains(t, p.Detail, pw.detail)
		}
		if p.Kind == checker.ProblemImport || p.Kind == checker.ProblemDirective || p.Kind == checker.ProblemPackage {
			assert.Contains(t, en, fmt.Sprintf("%s:%d", p.File, p.Line), "the message names the position")
			assert.Contains(t, en, p.Detail, "the message names the import, directive or package")
		}
		if p.Kind == checker.ProblemCompile {
			assert.Contains(t, en, pw.detail, "the message shows the learner's position")
		}
	}
}

// assertFailure checks that a failed test says where the learner's code
// departed, so that feedback can show it.
func assertFailure(t *testing.T, tr *checker.Test, res *checker.Result) {
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
		assert.Equal(t, f.Step, len(f.Done)+1-boolInt(f.Step == 0), "%s: Done holds the steps before the failing one", tr.Name)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// describe formats a result for a failure message.
func describe(res *checker.Result) string {
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// missingID matches how i18n shows a message id that its catalog lacks.
var missingID = regexp.MustCompile(`\[[a-z_]+(\.[a-z_]+)+\]`)

// slow are corpus cases that spend their time limit on purpose: they are
// checked alone, so that no round waits for their limit.
func slow(name string) bool {
	return slices.ContainsFunc([]string{"busy", "wait-for-token", "memory-bomb", "stack-overflow", "hang", "spin", "sleep", "deadlock", "blocks",
		"blocking-channel", "lock-held"},
		func(s string) bool { return strings.Contains(name, s) })
}

// endless are the slow cases that loop or wait until the time limit: a shorter
// limit ends them the same way. (A memory bomb or a stack overflow must
// meet its own limit first.)
func endless(name string) bool {
	return slices.ContainsFunc([]string{"busy", "wait-for-token", "hang", "spin", "sleep", "blocking-channel", "lock-held"},
		func(s string) bool { return strings.Contains(name, s) })
}

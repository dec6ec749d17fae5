package corpus_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
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
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/testkit"
)

// corpusDir holds the learner submissions; see its README.md.
const corpusDir = "../testdata/submissions"

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

// TestCorpus checks every case of the corpus and pins its verdict, for
// errors its problem, and holds the JUnit of every result to the schema.
// Most cases are checked in rounds with CheckAll,
// as grading checks a submission: round k puts the k-th case of every
// exercise into one build, so right, wrong, refused and non-compiling
// exercises share a build and each must still get the verdict it gets
// alone. The cases that crash during initialisation share rounds of their
// own: CheckAll must then check each exercise alone, and each crash stays
// its own exercise's. The cases that spend their time limit on purpose
// (see testkit.Slow, and a hang during initialisation) are checked alone with
// Check, in parallel, so that no round waits for them. So are the cases
// of concurrent exercises: their race detector's build is the go
// command's, of the whole module, and in a round it would compile every
// other exercise of the round again with the detector (testkit.Warm's
// check of the references puts a concurrent exercise into one build with
// all others).
//
// This is the one test that pins every verdict of the corpus. Grade's
// TestBatch and the command line's TestGradeCorpusIsAlwaysOneJSONDocument
// grade parts of the corpus again, for what a batch and kurs grade's
// output add, and check those parts' verdicts too.
func TestCorpus(t *testing.T) {
	c := testkit.Course(t)
	// The judges, the kit and the launcher before the rounds start side
	// by side; no case is a reference, so the references are not checked.
	require.NoError(t, (&checker.Checker{Build: testBuild}).Warm(context.Background(), c.Exercises))
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
		w := testkit.ReadWant(t, caseDir)
		for _, id := range sortedKeys(w.Exercises) {
			seen[name+"/"+id] = true
			ex, ok := c.Exercise(id)
			require.True(t, ok, "%s: want.json names unknown exercise %s", name, id)
			k := corpusCase{name: name, ex: ex, dir: filepath.Join(caseDir, id), want: w.Exercises[id]}
			switch pw := problems[name+"/"+id]; {
			case testkit.Slow(name) || pw.kind == checker.ProblemTimeout:
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
	before := testkit.Snapshot(t, corpusDir)
	t.Run("cases", func(t *testing.T) {
		for i, round := range append(rounds(normal), rounds(faults)...) {
			t.Run(fmt.Sprintf("round%02d", i), func(t *testing.T) {
				t.Parallel()
				checkRound(t, round, table, tmp, 3*testkit.CorpusTimeout)
			})
		}
		for _, k := range concurrent {
			t.Run(k.name+"/"+k.ex.ID, func(t *testing.T) {
				t.Parallel()
				checkRound(t, []corpusCase{k}, table, tmp, 3*testkit.CorpusTimeout)
			})
		}
		for _, k := range alone {
			limit := testkit.CorpusTimeout
			switch {
			case problems[k.name+"/"+k.ex.ID].kind == checker.ProblemTimeout:
				// A hang during initialisation: no test runs before
				// it, so it ends as the same timeout after any limit,
				// on a loaded machine too, and a busy one keeps a
				// processor busy until the limit.
				limit = time.Second
			case testkit.Endless(k.name):
				limit = testkit.HangTimeout
			}
			t.Run(k.name+"/"+k.ex.ID, func(t *testing.T) {
				t.Parallel()
				checkRound(t, []corpusCase{k}, table, tmp, limit)
			})
		}
	})
	if runtime.GOOS == "linux" {
		assert.Empty(t, testkit.ProcessesUnder(t, tmp), "processes of the checks are still running")
	}
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "the checks left files in their temporary directory")
	assert.Equal(t, before, testkit.Snapshot(t, corpusDir), "the checks changed the submissions")
	for key := range problems {
		assert.True(t, seen[key], "problems names %s, which the corpus does not hold", key)
	}
	sort.Strings(table.rows)
	t.Logf("verdicts (case/exercise, want, got, duration):\n%s", strings.Join(table.rows, "\n"))
	t.Run("junit validates", func(t *testing.T) { testkit.ValidJUnit(t, table.junit) })
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
// purpose are checked with the limit a check alone gets, with
// testkit.HangTimeout when they loop until it, or with a second when
// they hang during initialisation.
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
	assert.LessOrEqual(t, time.Since(start), time.Duration(2*len(round))*ck.Timeout+testkit.Slack, "the check did not end")
	for i, k := range round {
		t.Run(k.name+"/"+k.ex.ID, func(t *testing.T) {
			checkCase(t, k.ex, k.name, k.want, results[i], table)
		})
	}
}

func checkCase(t *testing.T, ex *course.Exercise, name string, wantStatus checker.Status, res *checker.Result, table *verdicts) {
	require.NotNil(t, res)
	var junit bytes.Buffer
	require.NoError(t, report.JUnit(&junit, i18n.New("en"), []explain.Graded{{Exercise: ex, Result: res}},
		report.Run{Course: "sha256:c0ffee", Seed: res.Seed, Dir: "submissions/" + name}))
	table.add(name+"/"+ex.ID, wantStatus, res.Status, res.Duration, junit.Bytes())

	assert.Equal(t, ex.ID, res.Exercise)
	assert.Equal(t, ex.Points, res.MaxScore)
	if !assert.Equal(t, wantStatus, res.Status, "verdict; result:\n%s", testkit.Describe(res)) {
		return
	}
	en := explain.Message(i18n.New("en"), ex, res)
	de := explain.Message(i18n.New("de"), ex, res)
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
		testkit.AssertFailure(t, first, res)
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

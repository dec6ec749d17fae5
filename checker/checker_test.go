package checker_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
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
	"github.com/kurs-course/kurs/internal/harness"

	refcb "github.com/kurs-course/kurs/exercises/circuitbreaker/solution"
)

// breaker is a correct circuit breaker; the tests derive wrong ones from it
// with edit.
const breaker = `package circuitbreaker

type CircuitBreaker struct {
	threshold, wait int
	state           string
	failures        int
	openedAt        int
}

func New(threshold, wait int) *CircuitBreaker {
	return &CircuitBreaker{threshold: threshold, wait: wait, state: "closed"}
}

func (b *CircuitBreaker) State() string { return b.state }

func (b *CircuitBreaker) Allow(now int) bool {
	if b.state == "closed" {
		return true
	}
	if b.state == "open" && now-b.openedAt >= b.wait {
		b.state = "half_open"
		return true
	}
	return false
}

func (b *CircuitBreaker) Success() {
	b.failures = 0
	if b.state == "half_open" {
		b.state = "closed"
	}
}

func (b *CircuitBreaker) Failure(now int) {
	switch b.state {
	case "half_open":
		b.state = "open"
		b.openedAt = now
	case "closed":
		b.failures++
		if b.failures >= b.threshold {
			b.trip(now)
		}
	}
}

func (b *CircuitBreaker) trip(now int) {
	b.state = "open"
	b.openedAt = now
}
`

// edit returns src with each old replaced by the following new, and fails
// the test when an old is not found.
func edit(t testing.TB, src string, oldNew ...string) string {
	t.Helper()
	for i := 0; i+1 < len(oldNew); i += 2 {
		require.Contains(t, src, oldNew[i], "edit: not found")
		src = strings.Replace(src, oldNew[i], oldNew[i+1], 1)
	}
	return src
}

// waitGT is a wrong breaker that lets the probe through one tick late.
func waitGT(t testing.TB) string {
	return edit(t, breaker, "now-b.openedAt >= b.wait", "now-b.openedAt > b.wait")
}

// lateFailureReopens is a wrong breaker that only the random traces catch:
// a Failure reported while open, once the wait is over, is taken for a
// failed probe and restarts the wait - as if the probe had been let
// through. The task says: open -> nothing.
func lateFailureReopens(t testing.TB) string {
	return edit(t, breaker, "\tcase \"closed\":\n\t\tb.failures++", `	case "open":
		if now-b.openedAt >= b.wait {
			b.openedAt = now
		}
	case "closed":
		b.failures++`)
}

// folder writes files into a new temporary exercise folder.
func folder(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		name = filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
		require.NoError(t, os.WriteFile(name, []byte(data), 0o644))
	}
	return dir
}

// courseFiles writes course files into a new temporary exercise folder.
func courseFiles(t testing.TB, files []course.File) string {
	t.Helper()
	m := map[string]string{}
	for _, f := range files {
		m[f.Name] = string(f.Data)
	}
	return folder(t, m)
}

func exercise(t testing.TB, id string) *course.Exercise {
	t.Helper()
	c := loadCourse(t)
	warm(t, c)
	ex, ok := c.Exercise(id)
	require.True(t, ok, id)
	return ex
}

// check runs ck on dir and checks that it ends (see slack).
func check(t testing.TB, ck *checker.Checker, ex *course.Exercise, dir string) *checker.Result {
	t.Helper()
	timeout := ck.Timeout
	if timeout == 0 {
		timeout = checker.DefaultTimeout
	}
	start := time.Now()
	res, err := ck.Check(context.Background(), ex, dir)
	require.NoError(t, err)
	require.NotNil(t, res)
	assert.LessOrEqual(t, time.Since(start), timeout+slack, "the check did not end")
	return res
}

// TestReferencePasses: every exercise's reference passes, all of them
// checked in one build by warm.
func TestReferencePasses(t *testing.T) {
	c := loadCourse(t)
	references := warm(t, c)
	require.Len(t, references, len(c.Exercises))
	for i, ex := range c.Exercises {
		t.Run(ex.ID, func(t *testing.T) {
			res := references[i]
			require.Equal(t, ex.ID, res.Exercise)
			require.Equal(t, checker.Pass, res.Status, describe(res))
			assert.Equal(t, ex.Points, res.Score)
			assert.Equal(t, res.MaxScore, res.Score)
			assert.Len(t, res.Tests, len(ex.Suite.Tests))
			for _, tr := range res.Tests {
				assert.Equal(t, checker.Pass, tr.Status, tr.Name)
			}
			assert.Empty(t, res.Output)
			assert.False(t, res.Killed)
			assert.Empty(t, res.Crash)
		})
	}
}

// TestSkeletonFails: every exercise's skeleton, in each language, fails
// every test with a failure that says where; the skeletons of one
// language are checked together.
func TestSkeletonFails(t *testing.T) {
	c := loadCourse(t)
	warm(t, c)
	for _, lang := range course.Languages {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			var jobs []checker.Job
			for _, ex := range c.Exercises {
				files, err := ex.Skeleton(lang)
				require.NoError(t, err)
				jobs = append(jobs, checker.Job{Exercise: ex, Dir: courseFiles(t, files)})
			}
			ck := &checker.Checker{Build: testBuild, Timeout: 3 * corpusTimeout}
			start := time.Now()
			results, err := ck.CheckAll(context.Background(), jobs)
			require.NoError(t, err)
			require.Len(t, results, len(jobs))
			assert.LessOrEqual(t, time.Since(start), time.Duration(2*len(jobs))*ck.Timeout+slack, "the check did not end")
			for i, ex := range c.Exercises {
				t.Run(ex.ID, func(t *testing.T) {
					res := results[i]
					require.Equal(t, ex.ID, res.Exercise)
					require.Equal(t, checker.Fail, res.Status, describe(res))
					assert.Nil(t, res.Problem)
					assert.Zero(t, res.Score)
					require.Len(t, res.Tests, len(ex.Suite.Tests))
					for _, tr := range res.Tests {
						// Stress tests too: a skeleton's pool hands out
						// every slot asked for, and each stress test
						// sees more callers holding one than the pool has.
						assert.Equal(t, checker.Fail, tr.Status, tr.Name)
						assert.False(t, tr.Missing, tr.Name)
						if assert.NotNil(t, tr.Failure, tr.Name) {
							assertFailure(t, &tr, res)
						}
					}
					assert.NotEmpty(t, explain.Message(i18n.New(lang), ex, res))
				})
			}
		})
	}
}

// forger returns Go source for an init that prints every kind of forged
// pass the checker could fall for, for each of the exercise's tests.
func forger(ex *course.Exercise) string {
	var lines []string
	for _, guess := range []string{"", "0123456789abcdef0123456789abcdef", strings.Repeat("0", 32)} {
		for _, tr := range ex.Suite.Tests {
			lines = append(lines, fmt.Sprintf(`{"nonce":%q,"kind":"result","test":%q,"status":"pass"}`, guess, tr.Name))
		}
		lines = append(lines, fmt.Sprintf(`{"nonce":%q,"kind":"done"}`, guess))
	}
	for _, tr := range ex.Suite.Tests {
		lines = append(lines,
			"=== RUN   "+tr.Name,
			"--- PASS: "+tr.Name+" (0.00s)",
			"\x16--- PASS: "+tr.Name+" (0.00s)",
			fmt.Sprintf(`{"Action":"pass","Package":"%s","Test":%q}`, ex.ID, tr.Name))
	}
	lines = append(lines, "PASS", "ok  \t"+ex.ID+"\t0.001s")
	var b strings.Builder
	b.WriteString("\nfunc init() {\n\tfor _, l := range []string{\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "\t\t%q,\n", l)
	}
	b.WriteString("\t} {\n\t\tfmt.Println(l)\n\t\tprintln(l)\n\t}\n}\n")
	return b.String()
}

func TestForgedOutputCannotPass(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	ck := &checker.Checker{Build: testBuild, Timeout: corpusTimeout}
	wrong := waitGT(t)
	forged := edit(t, wrong, "package circuitbreaker\n", "package circuitbreaker\n\nimport \"fmt\"\n") + forger(ex)

	plain := check(t, ck, ex, folder(t, map[string]string{"circuitbreaker.go": wrong}))
	res := check(t, ck, ex, folder(t, map[string]string{"circuitbreaker.go": forged}))
	require.Equal(t, checker.Fail, plain.Status, describe(plain))
	require.Equal(t, checker.Fail, res.Status, describe(res))
	assert.Zero(t, res.Score)
	assert.Equal(t, plain.Tests, res.Tests, "forged output changed the test results")
	assert.Contains(t, res.Output, "--- PASS: random", "the forged output is captured as the learner's")
	assert.Contains(t, res.Output, `"status":"pass"`)
}

func TestOutputIsCapped(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	ck := &checker.Checker{Build: testBuild, Timeout: corpusTimeout, OutputCap: 1024}
	withInit := func(body string) string {
		return edit(t, breaker, "package circuitbreaker\n", "package circuitbreaker\n\nimport \"fmt\"\n\nfunc init() {\n"+body+"\n}\n")
	}

	t.Run("flood", func(t *testing.T) {
		t.Parallel()
		flood := withInit(`	go func() {
		for i := 0; ; i++ {
			fmt.Println("--- FAIL: TestCircuitBreaker", i)
		}
	}()`)
		res := check(t, ck, ex, folder(t, map[string]string{"circuitbreaker.go": flood}))
		require.Equal(t, checker.Pass, res.Status, describe(res))
		assert.True(t, res.Truncated)
		assert.LessOrEqual(t, len(res.Output), 1024)
		assert.Greater(t, len(res.Output), 512, "the output up to the cap is kept")
		assert.True(t, strings.HasPrefix(res.Output, "--- FAIL: TestCircuitBreaker 0\n"), "the output starts at its beginning: %.80q", res.Output)
	})

	t.Run("small", func(t *testing.T) {
		t.Parallel()
		res := check(t, ck, ex, folder(t, map[string]string{"circuitbreaker.go": withInit(`	fmt.Print("hello")`)}))
		require.Equal(t, checker.Pass, res.Status, describe(res))
		assert.False(t, res.Truncated)
		assert.Equal(t, "hello", res.Output)
	})

	// One write of 600 bytes fits under a cap of 1024: kept whole, and
	// nothing was cut.
	t.Run("under-cap", func(t *testing.T) {
		t.Parallel()
		res := check(t, ck, ex, folder(t, map[string]string{"circuitbreaker.go": withInit(`	fmt.Print(fmt.Sprintf("%600s", "x"))`)}))
		require.Equal(t, checker.Pass, res.Status, describe(res))
		assert.Len(t, res.Output, 600)
		assert.False(t, res.Truncated)
	})
}

func TestCrashAfterFloodShowsPanic(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	src := edit(t, breaker, "package circuitbreaker\n", `package circuitbreaker

import "strings"

func init() {
	for range 200 {
		println(strings.Repeat("x", 1000))
	}
	panic("boom in init")
}
`)
	res := check(t, &checker.Checker{Build: testBuild, Timeout: corpusTimeout, OutputCap: 4096}, ex, folder(t, map[string]string{"circuitbreaker.go": src}))
	require.Equal(t, checker.Error, res.Status, describe(res))
	require.NotNil(t, res.Problem)
	assert.Equal(t, checker.ProblemCrash, res.Problem.Kind)
	assert.True(t, res.Truncated)
	assert.Contains(t, res.Problem.Detail, "boom in init")
	assert.Contains(t, explain.Message(i18n.New("en"), ex, res), "boom in init")
}

// spinning is a breaker whose init starts goroutines that spin forever and
// whose Allow never returns.
func spinning(t testing.TB) string {
	return edit(t, breaker,
		"package circuitbreaker\n", `package circuitbreaker

var spins [4]int

func init() {
	for i := range spins {
		go func() {
			for {
				spins[i]++
			}
		}()
	}
}
`,
		"func (b *CircuitBreaker) Allow(now int) bool {\n", "func (b *CircuitBreaker) Allow(now int) bool {\n\tfor b.wait >= 0 {\n\t\tspins[0]--\n\t}\n")
}

// blocked is a breaker whose init starts goroutines that wait forever and
// whose Allow never returns: a program that hangs without using a
// processor. Where a test needs a program that runs until the time limit
// but not a busy one, it proves the same as spinning without keeping the
// cores busy for the whole limit (TestBusyGoroutinesTimeOut is the one
// that needs them busy).
func blocked(t testing.TB) string {
	return edit(t, breaker,
		"package circuitbreaker\n", `package circuitbreaker

var waiting = make(chan int)

func init() {
	for range 4 {
		go func() { <-waiting }()
	}
}
`,
		"func (b *CircuitBreaker) Allow(now int) bool {\n", "func (b *CircuitBreaker) Allow(now int) bool {\n\t<-waiting\n")
}

func TestNothingLeftBehind(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("scans /proc")
	}
	// It waits out a time limit and uses no processor meanwhile: in
	// parallel with the other tests that do.
	t.Parallel()
	ex := exercise(t, "circuitbreaker")
	dir := folder(t, map[string]string{
		"circuitbreaker.go":      blocked(t),
		"circuitbreaker_test.go": "package circuitbreaker\n\nimport \"testing\"\n\nfunc TestMine(t *testing.T) {}\n",
		"notes.txt":              "my notes\n",
		"sub/other.go":           "package sub\n",
	})
	before := snapshot(t, dir)
	tmp := t.TempDir()
	ck := &checker.Checker{Build: testBuild, Timeout: hangTimeout, TempDir: tmp}

	// Watch the processes while the check runs, to know the scan sees the
	// test program at all.
	stop := make(chan struct{})
	seen := make(chan bool, 1)
	go func() {
		saw := false
		defer func() { seen <- saw }()
		for {
			for _, p := range processesUnder(t, tmp) {
				saw = saw || strings.Contains(p, "kurs-check-") && strings.Contains(p, "kurs-learner")
			}
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	res := check(t, ck, ex, dir)
	close(stop)
	assert.True(t, <-seen, "the scan never saw the test program run")

	assert.Empty(t, processesUnder(t, tmp), "processes of the check are still running")
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	assert.Empty(t, names, "the check left files in its temporary directory")
	assert.Equal(t, before, snapshot(t, dir), "the check changed the learner's folder")
	t.Logf("verdict of the hanging submission: %s", describe(res))
}

// A program that keeps both cores busy must still end as a timeout at the
// step that hangs, not be mistaken for a crash.
func TestBusyGoroutinesTimeOut(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	res := check(t, &checker.Checker{Build: testBuild, Timeout: hangTimeout}, ex, folder(t, map[string]string{"circuitbreaker.go": spinning(t)}))
	require.Equal(t, checker.Fail, res.Status, describe(res))
	first := res.FirstFailure()
	require.NotNil(t, first)
	require.NotNil(t, first.Failure, describe(res))
	assert.Equal(t, harness.Timeout, first.Failure.Kind)
	assert.Equal(t, "Allow(8)", first.Failure.Call)
}

// Only the non-test .go files directly in the folder are the learner's
// (the workspace contract): symbolic links, test files, other files and folders are not
// looked at, so a refused import there changes nothing.
func TestOnlyDirectGoFilesCount(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	evil := "package circuitbreaker\n\nimport \"os\"\n\nfunc init() { os.Exit(0) }\n"
	outside := folder(t, map[string]string{"evil.go": evil})
	dir := folder(t, map[string]string{
		"circuitbreaker.go":      breaker,
		"circuitbreaker_test.go": evil,
		"sub/evil.go":            evil,
		"evil.go.txt":            evil,
		".hidden.go":             evil,
		"_ignored.go":            evil,
	})
	if err := os.Symlink(filepath.Join(outside, "evil.go"), filepath.Join(dir, "link.go")); err != nil {
		t.Logf("no symbolic link: %v", err)
	}
	names, err := checker.ReadSources(dir, ex.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"circuitbreaker/circuitbreaker.go"}, names)
	res := check(t, &checker.Checker{Build: testBuild, Timeout: corpusTimeout}, ex, dir)
	assert.Equal(t, checker.Pass, res.Status, describe(res))
}

func TestConcurrentChecksOfSameFolder(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	ck := &checker.Checker{Build: testBuild, Timeout: corpusTimeout}
	dirs := map[checker.Status]string{
		checker.Pass: folder(t, map[string]string{"circuitbreaker.go": breaker}),
		checker.Fail: folder(t, map[string]string{"circuitbreaker.go": waitGT(t)}),
	}
	type outcome struct {
		want checker.Status
		res  *checker.Result
		err  error
	}
	var wg sync.WaitGroup
	out := make(chan outcome, 4)
	for want, dir := range dirs {
		for range 2 {
			wg.Go(func() {
				res, err := ck.Check(context.Background(), ex, dir)
				out <- outcome{want, res, err}
			})
		}
	}
	wg.Wait()
	close(out)
	tests := map[checker.Status][]checker.Test{}
	for o := range out {
		require.NoError(t, o.err)
		require.Equal(t, o.want, o.res.Status, describe(o.res))
		if prev, ok := tests[o.want]; ok {
			assert.Equal(t, prev, o.res.Tests, "two checks of the same folder differ")
		}
		tests[o.want] = o.res.Tests
	}
}

func TestSameSeedSameResult(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	dir := folder(t, map[string]string{"circuitbreaker.go": lateFailureReopens(t)})
	run := func(seed uint64) *checker.Result {
		res := check(t, &checker.Checker{Build: testBuild, Timeout: corpusTimeout, Seed: seed}, ex, dir)
		require.Equal(t, checker.Fail, res.Status, describe(res))
		return res
	}
	a, b := run(7), run(7)
	assert.Equal(t, a.Tests, b.Tests, "the same seed gave other results")
	assert.Equal(t, a.Seed, b.Seed)
	assert.Equal(t, explain.Message(i18n.New("en"), ex, a), explain.Message(i18n.New("en"), ex, b))

	other := run(8)
	assert.Equal(t, uint64(8), other.Seed)
	f := other.FirstFailure()
	require.NotNil(t, f)
	assert.Equal(t, "random", f.Name)
	require.NotNil(t, f.Failure)
	assert.Equal(t, uint64(8), f.Failure.Seed)
	t.Logf("seed 7: trace %d, seed 8: trace %d", a.FirstFailure().Failure.Index, f.Failure.Index)

	// The zero Seed means the default one.
	def := run(0)
	assert.Equal(t, uint64(checker.DefaultSeed), def.Seed)
}

// callRE parses a call as the harness formats it.
var callRE = regexp.MustCompile(`^(\w+)\((-?\d*)\)$`)

// replay runs a failure's trace on the reference breaker and checks that it
// agrees with every step the learner's code got right and with Want at the
// failing step.
func replay(t *testing.T, f *harness.Failure) {
	t.Helper()
	require.Len(t, f.New, 2)
	b := refcb.New(int(f.New[0]), int(f.New[1]))
	do := func(call string) harness.Result {
		m := callRE.FindStringSubmatch(call)
		require.NotNil(t, m, "call %q", call)
		n, _ := strconv.Atoi(m[2])
		return referenceStep(t, b, m[1], n)
	}
	for i, d := range f.Done {
		assert.Equal(t, d.Got, do(d.Call), "step %d, %s", i+1, d.Call)
	}
	want := do(f.Call)
	assert.Equal(t, f.Want, want, "the failing step's Want is the reference's")
	assert.NotEqual(t, f.Got, want)
}

// TestRandomFailureIsShrunk: a breaker that only random traces catch is
// shown one of them cut down to a few steps, which the learner can follow
// by hand and type into kurs try: it still fails, no step of it can go,
// and a second check shows the same.
func TestRandomFailureIsShrunk(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	ck := &checker.Checker{Build: testBuild, Timeout: corpusTimeout}
	files := []course.File{{Name: "circuitbreaker.go", Data: []byte(lateFailureReopens(t))}}
	res := check(t, ck, ex, courseFiles(t, files))
	require.Equal(t, checker.Fail, res.Status, describe(res))
	for _, tr := range res.Tests {
		if tr.Name != "random" {
			assert.Equal(t, checker.Pass, tr.Status, "only the random traces should catch this breaker: %s", tr.Name)
		}
	}
	first := res.FirstFailure()
	require.NotNil(t, first)
	require.Equal(t, "random", first.Name)
	f := first.Failure
	require.NotNil(t, f)
	assert.Equal(t, uint64(checker.DefaultSeed), f.Seed)
	assertShrunk(t, ck, ex, files, f)

	msg := explain.Message(i18n.New("en"), ex, res)
	assert.Contains(t, msg, fmt.Sprintf("cut down from %d steps", f.Original))
	assert.Contains(t, msg, f.Call)
	t.Logf("random trace %d shrunk from %d to %d steps:\n%s", f.Index, f.Original, f.Step, msg)

	// The same code checked again shows the learner the same trace.
	again := check(t, ck, ex, courseFiles(t, files)).FirstFailure()
	require.NotNil(t, again)
	assert.Equal(t, f, again.Failure, "a second check shows another trace")

	// The corpus breakers that the README says the seed's traces do not
	// catch, only edge or random ones, are caught by an edge trace first;
	// where the random traces catch them too, their trace is shrunk.
	for _, name := range []string{"cb-fail-reopen-while-open", "cb-fail-success-closes-open"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(corpusDir, name, "circuitbreaker")
			res := check(t, ck, ex, dir)
			require.Equal(t, checker.Fail, res.Status)
			for _, tr := range res.Tests {
				if strings.HasPrefix(tr.Name, "seed/") {
					assert.Equal(t, checker.Pass, tr.Status, "the seed's trace %s", tr.Name)
				}
			}
			first := res.FirstFailure()
			require.NotNil(t, first)
			assert.True(t, strings.HasPrefix(first.Name, "edge/"), "caught first by %s, not by an edge trace", first.Name)
			var random *checker.Test
			for i := range res.Tests {
				if res.Tests[i].Name == "random" {
					random = &res.Tests[i]
				}
			}
			require.NotNil(t, random)
			require.Equal(t, checker.Fail, random.Status, "the random traces let it pass")
			data, err := os.ReadFile(filepath.Join(dir, "circuitbreaker.go"))
			require.NoError(t, err)
			assertShrunk(t, ck, ex, []course.File{{Name: "circuitbreaker.go", Data: data}}, random.Failure)
		})
	}
}

// assertShrunk checks what a learner sees of f, a random trace's failure
// of the breaker files: a trace of at most 10 steps, cut down from a
// longer one, that departs from the reference at its last step. Run again
// on the learner's code, it departs there with the same answers, and
// without any one of its steps it does not depart at all: no shorter
// trace the shrinker could find by dropping a step still fails.
func assertShrunk(t *testing.T, ck *checker.Checker, ex *course.Exercise, files []course.File, f *harness.Failure) {
	t.Helper()
	require.NotNil(t, f)
	require.Equal(t, harness.Mismatch, f.Kind)
	assert.LessOrEqual(t, len(f.Done), 10, "the shrunk trace is short")
	assert.Greater(t, f.Original, len(f.Done)+1, "the trace was shrunk")
	require.Equal(t, len(f.Done)+1, f.Step, "the trace departs at its last step")
	replay(t, f)

	shown := harness.Trace{New: f.New}
	for _, c := range append(doneCalls(f), f.Call) {
		m := callRE.FindStringSubmatch(c)
		require.NotNil(t, m, "call %q", c)
		s := harness.Step{Call: m[1]}
		if m[2] != "" {
			n, err := strconv.ParseFloat(m[2], 64)
			require.NoError(t, err)
			s.Args = []float64{n}
		}
		shown.Steps = append(shown.Steps, s)
	}
	trs := []harness.Trace{shown}
	for i := range shown.Steps {
		trs = append(trs, harness.Trace{New: shown.New, Steps: append(shown.Steps[:i:i], shown.Steps[i+1:]...)})
	}
	s, p, err := ck.Serve(context.Background(), ex, files)
	require.NoError(t, err)
	require.Nil(t, p)
	defer s.Close()
	replies := make([]harness.Reply, len(trs))
	require.NoError(t, s.Run(trs, func(i int, r harness.Reply) bool {
		replies[i] = r
		return false
	}))

	// The trace as shown: the learner's code answers as the learner was
	// told, up to the step where it departs.
	got := replies[0].Results
	require.Len(t, got, len(shown.Steps)+1)
	if f.Init != nil {
		assert.Equal(t, *f.Init, got[0], "after New")
	}
	for i, d := range f.Done {
		assert.Equal(t, d.Got, got[i+1], "step %d, %s", i+1, d.Call)
	}
	assert.Equal(t, f.Got, got[len(got)-1], "the failing step, %s", f.Call)
	assert.NotEqual(t, referenceRun(t, shown), got, "the shown trace no longer fails")

	for i, tr := range trs[1:] {
		assert.Equal(t, referenceRun(t, tr), replies[i+1].Results, "without step %d, %s, the trace still fails: it is not as short as it can be", i+1, harness.FormatCall(shown.Steps[i].Call, shown.Steps[i].Args))
	}
}

// doneCalls returns the calls of the steps before f's failing one.
func doneCalls(f *harness.Failure) []string {
	var calls []string
	for _, d := range f.Done {
		calls = append(calls, d.Call)
	}
	return calls
}

// referenceRun runs tr on the reference breaker and returns what New and
// each step left, as the learner's program reports it.
func referenceRun(t *testing.T, tr harness.Trace) []harness.Result {
	t.Helper()
	require.Len(t, tr.New, 2)
	b := refcb.New(int(tr.New[0]), int(tr.New[1]))
	out := []harness.Result{{Obs: b.State()}}
	for _, s := range tr.Steps {
		n := 0
		if len(s.Args) > 0 {
			n = int(s.Args[0])
		}
		out = append(out, referenceStep(t, b, s.Call, n))
	}
	return out
}

// referenceStep makes the call named call, with n where it takes one, on
// the reference breaker b and returns what it answered and left.
func referenceStep(t *testing.T, b *refcb.CircuitBreaker, call string, n int) harness.Result {
	t.Helper()
	var r harness.Result
	switch call {
	case "Allow":
		r.Ret = strconv.FormatBool(b.Allow(n))
	case "Success":
		b.Success()
	case "Failure":
		b.Failure(n)
	default:
		t.Fatalf("unknown call %q", call)
	}
	r.Obs = b.State()
	return r
}

func TestTimeoutReportsStep(t *testing.T) {
	// It waits out a time limit and uses no processor meanwhile: in
	// parallel with the other tests that do.
	t.Parallel()
	ex := exercise(t, "circuitbreaker")
	// Allow hangs without using a processor: TestBusyGoroutinesTimeOut
	// shows that a busy one ends at the same step.
	hangs := edit(t, breaker, "func (b *CircuitBreaker) Allow(now int) bool {\n", "func (b *CircuitBreaker) Allow(now int) bool {\n\tif now >= 0 {\n\t\tselect {}\n\t}\n")
	start := time.Now()
	res := check(t, &checker.Checker{Build: testBuild, Timeout: hangTimeout}, ex, folder(t, map[string]string{"circuitbreaker.go": hangs}))
	require.Equal(t, checker.Fail, res.Status, describe(res))
	assert.GreaterOrEqual(t, time.Since(start), hangTimeout*8/10, "the limit came too early")
	first := res.FirstFailure()
	require.NotNil(t, first)
	assert.Equal(t, ex.Suite.Tests[0].Name, first.Name)
	f := first.Failure
	require.NotNil(t, f, describe(res))
	assert.Equal(t, harness.Timeout, f.Kind)
	assert.Regexp(t, `^Allow\(\d+\)$`, f.Call)
	// The seed trace's first Allow is its 7th step, Allow(8).
	assert.Equal(t, "Allow(8)", f.Call)
	assert.Equal(t, 7, f.Step)
	assert.Len(t, f.Done, 6)
	for _, tr := range res.Tests[1:] {
		assert.Equal(t, checker.Fail, tr.Status, tr.Name)
		assert.True(t, tr.Missing, "%s ran after the time limit", tr.Name)
	}
	msg := explain.Message(i18n.New("en"), ex, res)
	assert.Contains(t, msg, "Allow(8)")
	assert.Contains(t, msg, "time limit")
}

// A timeout inside a random trace must say which trace it was and what is
// observed, so that the learner can follow it.
func TestRandomTimeoutNamesTrace(t *testing.T) {
	// It waits out a time limit and uses no processor meanwhile: in
	// parallel with the other tests that do.
	t.Parallel()
	ex := exercise(t, "circuitbreaker")
	// Hangs only with wait 6, which only the random traces use, and
	// without using a processor (TestBusyGoroutinesTimeOut shows that a
	// busy hang ends the same way).
	src := edit(t, breaker, "func (b *CircuitBreaker) Allow(now int) bool {\n", "func (b *CircuitBreaker) Allow(now int) bool {\n\tif b.wait == 6 && b.state == \"open\" {\n\t\tselect {}\n\t}\n")
	res := check(t, &checker.Checker{Build: testBuild, Timeout: hangTimeout}, ex, folder(t, map[string]string{"circuitbreaker.go": src}))
	require.Equal(t, checker.Fail, res.Status, describe(res))
	first := res.FirstFailure()
	require.NotNil(t, first)
	require.Equal(t, "random", first.Name, describe(res))
	f := first.Failure
	require.NotNil(t, f)
	assert.Equal(t, harness.Timeout, f.Kind)
	assert.Equal(t, []float64{1, 6}, f.New[:2], "any threshold, wait 6")
	assert.Regexp(t, `^Allow\(\d+\)$`, f.Call)
	assert.Equal(t, uint64(checker.DefaultSeed), f.Seed)
	assert.Equal(t, "State()", f.Observe)
	assert.Contains(t, explain.Message(i18n.New("en"), ex, res), "Random trace no.")
}

func TestPanicReportsLearnerFrame(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	cases := []struct {
		name, src, marker, call string
	}{
		// A runtime error in a helper: the innermost learner frame is the
		// helper's line, not the runtime's.
		{"nil-map", edit(t, breaker, "func (b *CircuitBreaker) trip(now int) {\n", "var opened map[int]bool\n\nfunc (b *CircuitBreaker) trip(now int) {\n\topened[now] = true // PANIC\n"), "// PANIC", "Failure(4)"},
		// A leftover panic in a method.
		{"todo", edit(t, breaker, "\tcase \"half_open\":\n\t\tb.state = \"open\"\n", "\tcase \"half_open\":\n\t\tpanic(\"TODO: half_open\") // PANIC\n"), "// PANIC", "Failure(9)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			line := 0
			for i, l := range strings.Split(tc.src, "\n") {
				if strings.Contains(l, tc.marker) {
					line = i + 1
				}
			}
			require.NotZero(t, line)
			res := check(t, &checker.Checker{Build: testBuild, Timeout: corpusTimeout}, ex, folder(t, map[string]string{"circuitbreaker.go": tc.src}))
			require.Equal(t, checker.Fail, res.Status, describe(res))
			first := res.FirstFailure()
			require.NotNil(t, first)
			f := first.Failure
			require.NotNil(t, f, describe(res))
			assert.Equal(t, harness.Panicked, f.Kind)
			assert.Equal(t, tc.call, f.Call)
			assert.NotEmpty(t, f.Panic)
			assert.Contains(t, f.Frame, "circuitbreaker/")
			pos := fmt.Sprintf("circuitbreaker/circuitbreaker.go:%d", line)
			assert.True(t, strings.HasSuffix(f.Frame, pos), "frame %q, want …%s", f.Frame, pos)
			for _, lang := range []string{"en", "de"} {
				msg := explain.Message(i18n.New(lang), ex, res)
				assert.Contains(t, msg, pos)
				assert.NotContains(t, msg, "github.com/kurs-course", "the learner's position is shown relative to the workspace")
			}
		})
	}
}

func BenchmarkCheckReference(b *testing.B) {
	benchmarkCheck(b, &checker.Checker{Build: testBuild})
}

// BenchmarkCheckReferenceWithoutDefences is the same check with the static
// checks, resource limits and process group off: the ratio of the two is
// what the defences cost.
func BenchmarkCheckReferenceWithoutDefences(b *testing.B) {
	benchmarkCheck(b, checker.WithoutDefences(checker.Checker{Build: testBuild}))
}

func benchmarkCheck(b *testing.B, ck *checker.Checker) {
	ex := exercise(b, "circuitbreaker")
	files, err := ex.Solution()
	require.NoError(b, err)
	dir := courseFiles(b, files)
	name := filepath.Join(dir, files[0].Name)
	b.ResetTimer()
	for i := range b.N {
		// An edit, as a learner makes before checking.
		require.NoError(b, os.WriteFile(name, fmt.Appendf(bytes.Clone(files[0].Data), "\n// edit %d\n", i), 0o644))
		res, err := ck.Check(context.Background(), ex, dir)
		require.NoError(b, err)
		require.Equal(b, checker.Pass, res.Status)
	}
}

// BenchmarkGoTestBaseline times a bare go test -count=1 of the same
// reference with a tiny test after an edit: the baseline a warm check is measured against.
func BenchmarkGoTestBaseline(b *testing.B) {
	ex := exercise(b, "circuitbreaker")
	files, err := ex.Solution()
	require.NoError(b, err)
	test, err := os.ReadFile(filepath.Join("testdata", "baseline", "circuitbreaker_test.go"))
	require.NoError(b, err)
	dir := folder(b, map[string]string{
		"go.mod":                 "module example.com/baseline\n\ngo 1.22\n",
		"circuitbreaker_test.go": string(test),
	})
	name := filepath.Join(dir, "circuitbreaker.go")
	env := append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off", "CGO_ENABLED=0")
	goTest := func(i int) {
		require.NoError(b, os.WriteFile(name, fmt.Appendf(bytes.Clone(files[0].Data), "\n// edit %d\n", i), 0o644))
		cmd := exec.Command("go", "test", "-count=1", ".")
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		require.NoError(b, err, "%s", out)
	}
	goTest(-1) // warm the build cache
	b.ResetTimer()
	for i := range b.N {
		goTest(i)
	}
}

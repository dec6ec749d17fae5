package checker_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/testkit"
)

// corpusJobs returns the jobs of the corpus's submissions names, one
// slice per submission, its exercises in name order.
func corpusJobs(t *testing.T, names ...string) [][]checker.Job {
	t.Helper()
	c := loadCourse(t)
	var subs [][]checker.Job
	for _, name := range names {
		w := testkit.ReadWant(t, filepath.Join(corpusDir, name))
		var ids []string
		for id := range w.Exercises {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		var jobs []checker.Job
		for _, id := range ids {
			ex, ok := c.Exercise(id)
			require.True(t, ok, id)
			jobs = append(jobs, checker.Job{Exercise: ex, Dir: filepath.Join(corpusDir, name, id)})
		}
		subs = append(subs, jobs)
	}
	return subs
}

// eachAlone returns each submission's results as CheckAll gives them,
// what a batch must give too.
func eachAlone(t *testing.T, ck *checker.Checker, subs [][]checker.Job) [][]*checker.Result {
	t.Helper()
	var want [][]*checker.Result
	for _, jobs := range subs {
		results, err := ck.CheckAll(t.Context(), jobs)
		require.NoError(t, err)
		want = append(want, results)
	}
	return want
}

// asJSON returns res as the result document holds it, without its
// duration, which differs from run to run.
func asJSON(t *testing.T, res *checker.Result) string {
	t.Helper()
	r := *res
	r.Duration = 0
	if r.Crash != "" {
		// The runtime's report holds addresses and kurs's own frames;
		// what the learner is shown of it is Crash.
		r.Output = ""
	}
	data, err := json.MarshalIndent(&r, "", "  ")
	require.NoError(t, err)
	return string(data)
}

// Submissions checked together in one batch get, field by field, the
// results each gets from CheckAll alone with the same seed: right, wrong
// in several ways, a panic in a method with the learner's frame, a crash
// report that names the learner's functions, code that does not compile
// against the hidden tests, an init that panics, a quiz whose answers an
// init sets. And their programs take one link, not one each.
func TestCheckBatchAsCheckAll(t *testing.T) {
	t.Parallel()
	subs := corpusJobs(t, "all-pass", "mixed-verdicts", "cb-fail-panic-method", "cb-fail-stack-overflow",
		"cb-error-wrong-signature", "cb-pass-multifile", "tb-fail-no-cap", "hostile-init-panic", "quiz-pass-init", "tb-pass-mutex")
	b := privateBuilder(t)
	ck := &checker.Checker{Build: b, Timeout: corpusTimeout, Seed: 7}
	want := eachAlone(t, ck, subs)
	before := b.Stats()
	got := make([][]*checker.Result, len(subs))
	calls := 0
	require.NoError(t, ck.CheckBatch(t.Context(), subs, func(i int, results []*checker.Result, err error) {
		require.NoError(t, err)
		calls++
		assert.Nil(t, got[i], "submission %d reported twice", i)
		got[i] = results
	}))
	assert.Equal(t, len(subs), calls, "each submission reported once")
	for i, jobs := range subs {
		require.Len(t, got[i], len(jobs))
		for k, j := range jobs {
			assert.Equal(t, asJSON(t, want[i][k]), asJSON(t, got[i][k]), "%s", j.Dir)
		}
	}
	stats := b.Stats()
	// The broken and the non-inert ones are built alone: a link each for
	// those that compile, and one for the batch.
	assert.Less(t, stats.Links-before.Links, 6, "links of the batch: %+v, before %+v", stats, before)
	assert.Greater(t, stats.Links-before.Links, 0)
}

// A member whose variables would take the memory of every program of the
// batch is not linked with the others: a zeroed array of 80 MiB that its
// New touches, which the program maps before it runs, or an array of 6 MiB
// put into an interface in a map, which the program copies to its heap
// when it starts (inert lets it pass; the start's check does not). The batch is dropped and each is built alone, with the same
// verdicts.
func TestBatchTooLargeIsBuiltAlone(t *testing.T) {
	t.Parallel()
	cb := exercise(t, "circuitbreaker")
	files, err := cb.Solution()
	require.NoError(t, err)
	require.Len(t, files, 1)
	ref := string(files[0].Data)
	const head = "\nfunc New(threshold, wait int) *CircuitBreaker {"
	require.Contains(t, ref, head)
	for name, large := range map[string]string{
		"mapped": strings.Replace(ref, head, "\nvar scratch [80 << 20]byte\n"+head+"\n\tscratch[threshold&1]++", 1),
		"heap":   strings.Replace(ref, head, "\nvar scratch [768 << 10]int\n\nvar boxed = map[int]any{1: scratch}\n"+head, 1),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var subs [][]checker.Job
			for i, src := range []string{ref, large} {
				sub := filepath.Join(dir, strconv.Itoa(i), cb.ID)
				require.NoError(t, os.MkdirAll(sub, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(sub, files[0].Name), []byte(src), 0o644))
				subs = append(subs, []checker.Job{{Exercise: cb, Dir: sub}})
			}
			b := privateBuilder(t)
			ck := &checker.Checker{Build: b, Timeout: corpusTimeout}
			got := map[int]*checker.Result{}
			require.NoError(t, ck.CheckBatch(t.Context(), subs, func(i int, results []*checker.Result, err error) {
				require.NoError(t, err)
				got[i] = results[0]
			}))
			for i := range subs {
				require.NotNil(t, got[i])
				assert.Equal(t, checker.Pass, got[i].Status, "%d: %s", i, describe(got[i]))
			}
			// The batch's link, then one for each.
			assert.Equal(t, 3, b.Stats().Links, "%+v", b.Stats())
		})
	}
}

// Every exercise's test program, merged into the learner's package (see
// CheckBatch), checks the reference as a program of its own does: each
// reference passes, twice in one batch, with one link.
func TestEveryReferenceInABatch(t *testing.T) {
	t.Parallel()
	c := loadCourse(t)
	dir := t.TempDir()
	var subs [][]checker.Job
	for _, sub := range []string{"a", "b"} {
		var jobs []checker.Job
		for _, ex := range c.Exercises {
			files, err := ex.Solution()
			require.NoError(t, err)
			exDir := filepath.Join(dir, sub, ex.ID)
			require.NoError(t, os.MkdirAll(exDir, 0o755))
			for _, f := range files {
				// A comment of its own, so that the two are two members.
				data := append(append([]byte(nil), f.Data...), "\n// "+sub+"\n"...)
				require.NoError(t, os.WriteFile(filepath.Join(exDir, f.Name), data, 0o644))
			}
			jobs = append(jobs, checker.Job{Exercise: ex, Dir: exDir})
		}
		subs = append(subs, jobs)
	}
	b := privateBuilder(t)
	ck := &checker.Checker{Build: b, Timeout: corpusTimeout}
	reported := 0
	require.NoError(t, ck.CheckBatch(t.Context(), subs, func(i int, results []*checker.Result, err error) {
		require.NoError(t, err)
		reported++
		for _, res := range results {
			assert.Equal(t, checker.Pass, res.Status, "%s of %d: %s", res.Exercise, i, describe(res))
		}
	}))
	assert.Equal(t, 2, reported)
	assert.Equal(t, 1, b.Stats().Links, "%+v", b.Stats())
}

// Behind inert stands the batch program's start: a member whose
// initialisation panics, were it taken for inert, makes the start fail,
// and every member is built alone, with the verdicts each gets alone.
func TestBatchThatFailsToStartIsBuiltAlone(t *testing.T) {
	t.Parallel()
	subs := corpusJobs(t, "hostile-init-panic", "all-pass")
	b := privateBuilder(t)
	ck := checker.TrustingInit(checker.Checker{Build: b, Timeout: corpusTimeout, Seed: 3})
	want := eachAlone(t, ck, subs)
	before := b.Stats()
	require.NoError(t, ck.CheckBatch(t.Context(), subs, func(i int, results []*checker.Result, err error) {
		require.NoError(t, err)
		for k := range results {
			assert.Equal(t, asJSON(t, want[i][k]), asJSON(t, results[k]))
		}
	}))
	// The batch was linked, and its start refused: each was built alone
	// (by CheckAll before, so the objects were there).
	assert.GreaterOrEqual(t, b.Stats().Links-before.Links, 1, "%+v", b.Stats())
}

// A concurrent exercise in a batch still gets the race detector's build,
// of its own module: a pool that reads its count without the lock passes
// every invariant and fails by the race alone, beside a reference that
// passes.
func TestBatchKeepsTheRaceDetector(t *testing.T) {
	t.Parallel()
	if !checker.RaceSupported() {
		t.Skip("no race detector here")
	}
	bp := exercise(t, "bulkheadpool")
	racy := filepath.Join("corpus", "testdata", "recall", "bp-inuse-unlocked", bp.ID)
	ref := withReference(t, bp, filepath.Join(t.TempDir(), "none"))
	subs := [][]checker.Job{{{Exercise: bp, Dir: racy}}, {{Exercise: bp, Dir: ref}}}
	ck := &checker.Checker{Build: privateBuilder(t), Timeout: corpusTimeout}
	got := map[int]*checker.Result{}
	require.NoError(t, ck.CheckBatch(t.Context(), subs, func(i int, results []*checker.Result, err error) {
		require.NoError(t, err)
		got[i] = results[0]
	}))
	assert.Equal(t, checker.Fail, got[0].Status, describe(got[0]))
	assert.Equal(t, checker.ConcurrencyRace, got[0].Concurrency, "skipped: %q", got[0].RaceSkipped)
	assert.Equal(t, checker.Pass, got[1].Status, describe(got[1]))
}

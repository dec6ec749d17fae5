package explain_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
)

// checkRounds checks the learner's code of each item, files[i] for
// exs[i], the way grading checks a submission: round k puts the k-th
// item of every exercise into one learner's program, built once
// (checker.CheckAll), each exercise still run in a process of its own.
func checkRounds(t *testing.T, ck *checker.Checker, exs []*course.Exercise, files [][]course.File) []*checker.Result {
	t.Helper()
	type at struct {
		i   int
		dir string
	}
	var rounds [][]at
	n := map[string]int{}
	for i, ex := range exs {
		k := n[ex.ID]
		n[ex.ID]++
		if k == len(rounds) {
			rounds = append(rounds, nil)
		}
		dir := filepath.Join(t.TempDir(), ex.ID)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for _, f := range files[i] {
			require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644))
		}
		rounds[k] = append(rounds[k], at{i, dir})
	}
	results := make([]*checker.Result, len(exs))
	var wg sync.WaitGroup
	errs := make([]error, len(rounds))
	sem := make(chan struct{}, 2)
	for r, round := range rounds {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			jobs := make([]checker.Job, len(round))
			for j, a := range round {
				jobs[j] = checker.Job{Exercise: exs[a.i], Dir: a.dir}
			}
			res, err := ck.CheckAll(context.Background(), jobs)
			if err != nil {
				errs[r] = err
				return
			}
			for j, a := range round {
				results[a.i] = res[j]
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	return results
}

// TestMisconceptionsRecognised measures how often kurs names the mistake
// in wrong solutions that were written apart from the misconceptions
// (testdata/learners, written from the tasks before any misconception),
// and that it never names one in a correct solution. Precision comes
// first: the share named must be at least half, and every correct
// solution, whatever its result, is named by nothing.
func TestMisconceptionsRecognised(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 30 programs")
	}
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	type item struct {
		ex      *course.Exercise
		name    string
		files   []course.File
		correct bool
		res     *checker.Result
	}
	var items []*item
	dirs, err := filepath.Glob("testdata/learners/*/*")
	require.NoError(t, err)
	for _, d := range dirs {
		ex, ok := c.Exercise(filepath.Base(filepath.Dir(d)))
		require.True(t, ok, d)
		names, err := filepath.Glob(filepath.Join(d, "*.go"))
		require.NoError(t, err)
		var files []course.File
		for _, n := range names {
			data, err := os.ReadFile(n)
			require.NoError(t, err)
			files = append(files, course.File{Name: filepath.Base(n), Data: data})
		}
		items = append(items, &item{ex: ex, name: d, files: files})
	}
	require.GreaterOrEqual(t, len(items), 15)
	for _, ex := range c.Exercises {
		if ex.Kind() == course.KindQuiz {
			continue
		}
		sol, err := ex.Solution()
		require.NoError(t, err)
		items = append(items, &item{ex: ex, name: ex.ID + " (reference)", files: sol, correct: true})
	}
	exs := make([]*course.Exercise, len(items))
	files := make([][]course.File, len(items))
	for i, it := range items {
		exs[i], files[i] = it.ex, it.files
	}
	for i, res := range checkRounds(t, &checker.Checker{}, exs, files) {
		require.Equal(t, items[i].ex.ID, res.Exercise, items[i].name)
		items[i].res = res
	}
	named, wrong := 0, 0
	for _, it := range items {
		r := explain.Recognise(it.ex, it.res)
		if it.correct {
			assert.Equal(t, checker.Pass, it.res.Status, it.name)
			assert.Nil(t, r, "%s: a correct solution is named", it.name)
			continue
		}
		wrong++
		require.Equal(t, checker.Fail, it.res.Status, "%s is a wrong solution that compiles", it.name)
		switch {
		case r == nil:
			t.Logf("%-45s not named (fails %v)", it.name, explain.Signature(it.ex, it.res).Fail)
		case r.Maybe:
			t.Logf("%-45s might be %s", it.name, r.Misconception.ID)
		default:
			named++
			t.Logf("%-45s named %s", it.name, r.Misconception.ID)
		}
	}
	t.Logf("named %d of %d wrong solutions", named, wrong)
	assert.GreaterOrEqual(t, 2*named, wrong, "at least half the wrong solutions are named")
}

// TestSameNameUnderSeeds: a submission gets the same misconception, at the
// same level, whatever the seed of its random traces, and the stress
// tests' luck does not change it either. A pool without a lock, one whose
// InUse alone reads without it and one with an atomic check-then-add,
// whose stress tests fail differently from run to run, are each named
// under ten seeds; the racing ones' explanations show the race detector's
// report, with the learner's file and line, every time.
func TestSameNameUnderSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("checks three pools under ten seeds")
	}
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	ex, ok := c.Exercise("bulkheadpool")
	require.True(t, ok)
	for _, k := range []struct{ dir, want string }{
		{"plain-counter", "no-lock"},
		{"atomic-load-then-add", "atomic-check-then-add"},
		{"shared-counter", "one-count-for-all-pools"},
		{"read-without-lock", "unlocked-read"},
	} {
		t.Run(k.dir, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join("testdata/learners/bulkheadpool", k.dir, "bulkheadpool.go"))
			require.NoError(t, err)
			dir := filepath.Join(t.TempDir(), "bulkheadpool")
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "bulkheadpool.go"), data, 0o644))
			for seed := uint64(1); seed <= 10; seed++ {
				res, err := (&checker.Checker{Seed: seed}).Check(context.Background(), ex, dir)
				require.NoError(t, err)
				require.Equal(t, checker.Fail, res.Status, "seed %d", seed)
				r := explain.Recognise(ex, res)
				require.NotNil(t, r, "seed %d: not named (fails %v)", seed, explain.Signature(ex, res))
				assert.Equal(t, k.want, r.Misconception.ID, "seed %d", seed)
				assert.False(t, r.Maybe, "seed %d: named as unsure", seed)
				msg := explain.Message(i18n.New("en"), ex, res)
				if k.want == "no-lock" || k.want == "unlocked-read" {
					require.NotEmpty(t, res.Races, "seed %d: no race found", seed)
					assert.Regexp(t, `bulkheadpool/bulkheadpool\.go:\d+`, msg, "seed %d: the race report's file and line", seed)
					e := explain.Explain(i18n.New("en"), ex, res, explain.Options{})
					assert.Contains(t, e.Output, "WARNING: DATA RACE", "seed %d: the race detector's report", seed)
				}
			}
		})
	}
}

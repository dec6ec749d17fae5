package checker_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
)

// built returns what b built since the stats before.
func built(b *build.Builder, before build.Stats) build.Stats {
	now := b.Stats()
	return build.Stats{Compiles: now.Compiles - before.Compiles, Links: now.Links - before.Links,
		GoBuilds: now.GoBuilds - before.GoBuilds, RaceBuilds: now.RaceBuilds - before.RaceBuilds}
}

// Saves in the learner's loop build only what they changed, and each gets
// the verdict of its own code: a comment builds the earlier program (its
// result stands), a changed body fails, a changed API does not build, and
// going back passes without a build. A grader, which reuses no result,
// gets every verdict from a run of programs the cache gave it.
func TestSavesBuildWhatChangedAndNeverAStaleVerdict(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	for _, reuse := range []bool{true, false} {
		name := map[bool]string{true: "learner", false: "grader"}[reuse]
		t.Run(name, func(t *testing.T) {
			b := privateBuilder(t)
			ck := &checker.Checker{Build: b, Timeout: corpusTimeout, Reuse: reuse}
			dir := folder(t, map[string]string{"circuitbreaker.go": breaker})
			save := func(src string) {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "circuitbreaker.go"), []byte(src), 0o644))
			}
			first := check(t, ck, ex, dir)
			require.Equal(t, checker.Pass, first.Status, describe(first))

			before := b.Stats()
			save(breaker + "\n// The breaker is done.\n")
			res := check(t, ck, ex, dir)
			assert.Equal(t, checker.Pass, res.Status, describe(res))
			assert.Equal(t, build.Stats{Compiles: 1}, built(b, before), "a comment at the end: the learner's package compiles to the same archive")
			if reuse {
				first.Duration, res.Duration = 0, 0
				assert.Equal(t, first, res, "the same program: the earlier result")
			}

			before = b.Stats()
			save(waitGT(t))
			res = check(t, ck, ex, dir)
			assert.Equal(t, checker.Fail, res.Status, describe(res))
			assert.Nil(t, res.Problem)
			got := built(b, before)
			assert.Equal(t, 1, got.Links, "a changed body is linked")
			assert.LessOrEqual(t, got.Compiles, 2, "the learner's package and at most its test program, not main")

			// A new body of a method the test program calls (as a
			// learner's save makes it, again and again): the learner's
			// package alone is compiled.
			body := edit(t, breaker, "func (b *CircuitBreaker) Success() {\n\tb.failures = 0\n",
				"func (b *CircuitBreaker) Success() {\n\tb.failures = edits - 1\n") + "\nvar edits = 1\n"
			save(body)
			res = check(t, ck, ex, dir)
			assert.Equal(t, checker.Pass, res.Status, describe(res))
			save(edit(t, body, "edits - 1\n", "edits - 2\n", "var edits = 1\n", "var edits = 2\n"))
			before = b.Stats()
			res = check(t, ck, ex, dir)
			assert.Equal(t, checker.Pass, res.Status, describe(res))
			assert.Equal(t, build.Stats{Compiles: 1, Links: 1}, built(b, before), "the learner's package alone, linked with the test program and main of before")

			// A new exported name: the learner's export data changes, the
			// test program's does not, so main is neither compiled nor
			// guessed wrong.
			save(breaker + "\n// Version names this breaker.\nconst Version = 2\n")
			before = b.Stats()
			res = check(t, ck, ex, dir)
			assert.Equal(t, checker.Pass, res.Status, describe(res))
			assert.Equal(t, build.Stats{Compiles: 2, Links: 1}, built(b, before), "the learner's package and its test program, linked with the main of before")

			before = b.Stats()
			save(edit(t, breaker, "func (b *CircuitBreaker) State() string", "func (b *CircuitBreaker) Status() string"))
			res = check(t, ck, ex, dir)
			require.Equal(t, checker.Error, res.Status, describe(res))
			assert.Equal(t, checker.ProblemAPI, res.Problem.Kind)
			assert.Zero(t, built(b, before).Links)

			before = b.Stats()
			save(breaker)
			res = check(t, ck, ex, dir)
			assert.Equal(t, checker.Pass, res.Status, describe(res))
			assert.Equal(t, build.Stats{}, built(b, before), "the first program again, from the cache")
		})
	}
}

// Checking several exercises at once, as grading a submission does,
// builds one learner's program for each, with no go command: each
// exercise's package, test program and main, and a link of each.
func TestSeveralExercisesEachItsProgram(t *testing.T) {
	b := privateBuilder(t)
	ck := &checker.Checker{Build: b, Timeout: corpusTimeout}
	var jobs []checker.Job
	for _, id := range []string{"circuitbreaker", "tokenbucket", "backoff"} {
		ex := exercise(t, id)
		jobs = append(jobs, checker.Job{Exercise: ex, Dir: reference(t, ex)})
	}
	results, err := ck.CheckAll(t.Context(), jobs)
	require.NoError(t, err)
	for _, res := range results {
		assert.Equal(t, checker.Pass, res.Status, describe(res))
	}
	got := b.Stats()
	assert.Equal(t, 3, got.Links)
	assert.Zero(t, got.GoBuilds)
	assert.Equal(t, 9, got.Compiles, "three learner's packages, three test programs and three mains")
}

// reference writes the exercise's reference solution into a new folder.
func reference(t *testing.T, ex *course.Exercise) string {
	t.Helper()
	sol, err := ex.Solution()
	require.NoError(t, err)
	files := map[string]string{}
	for _, f := range sol {
		if !strings.HasSuffix(f.Name, "_test.go") {
			files[f.Name] = string(f.Data)
		}
	}
	return folder(t, files)
}

// A result is kept for its course too: an exercise that is now worth
// other points is checked again, though the learner's files stayed.
func TestResultFollowsTheExercisesPoints(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	ck := &checker.Checker{Build: privateBuilder(t), Timeout: corpusTimeout, Reuse: true}
	dir := folder(t, map[string]string{"circuitbreaker.go": breaker})
	res := check(t, ck, ex, dir)
	require.Equal(t, checker.Pass, res.Status, describe(res))
	require.Equal(t, ex.Points, res.MaxScore)

	worth := *ex
	worth.Points = ex.Points + 6
	res = check(t, ck, &worth, dir)
	assert.Equal(t, checker.Pass, res.Status, describe(res))
	assert.Equal(t, worth.Points, res.MaxScore)
	assert.Equal(t, worth.Points, res.Score)
}

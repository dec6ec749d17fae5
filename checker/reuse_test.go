package checker_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/testkit"
)

// privateBuilder is testkit.PrivateBuilder.
var privateBuilder = testkit.PrivateBuilder

// linkShared makes each of subs in the cache folder dir a link to that
// folder of the shared cache (which it makes when missing).
func linkShared(t *testing.T, dir string, subs ...string) {
	t.Helper()
	shared, _ := build.DefaultDir()
	for _, sub := range subs {
		require.NoError(t, os.MkdirAll(filepath.Join(shared, sub), 0o700))
		require.NoError(t, os.Symlink(filepath.Join(shared, sub), filepath.Join(dir, sub)))
	}
}

// results returns the results the Builder keeps.
func results(t *testing.T, b *build.Builder) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(b.Dir(), "results", "*.json"))
	require.NoError(t, err)
	return names
}

// An unchanged check gives the earlier check's result, the same in every
// field but the time it took; it is the earlier one's (a mark put into
// the kept result shows).
func TestUnchangedCheckIsReused(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	ck := &checker.Checker{Build: privateBuilder(t), Timeout: corpusTimeout, Reuse: true}
	dir := folder(t, map[string]string{"circuitbreaker.go": waitGT(t)})
	first := check(t, ck, ex, dir)
	require.Equal(t, checker.Fail, first.Status, describe(first))
	kept := results(t, ck.Build)
	require.Len(t, kept, 1)

	again := check(t, ck, ex, dir)
	first.Duration, again.Duration = 0, 0
	assert.Equal(t, first, again)

	var res checker.Result
	data, err := os.ReadFile(kept[0])
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &res))
	res.Output = "kept"
	data, err = json.Marshal(&res)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(kept[0], data, 0o600))
	assert.Equal(t, "kept", check(t, ck, ex, dir).Output)
	// A check that builds nothing makes no temporary folder.
	nowhere := &checker.Checker{Build: ck.Build, Timeout: corpusTimeout, Reuse: true, TempDir: filepath.Join(t.TempDir(), "missing")}
	assert.Equal(t, "kept", check(t, nowhere, ex, dir).Output)

	// Another seed is another check, and so is a check that does not
	// reuse.
	fresh := &checker.Checker{Build: ck.Build, Timeout: corpusTimeout}
	assert.Empty(t, check(t, fresh, ex, dir).Output)

	other := &checker.Checker{Build: ck.Build, Timeout: corpusTimeout, Seed: 7, Reuse: true}
	assert.Empty(t, check(t, other, ex, dir).Output)
	assert.Len(t, results(t, ck.Build), 2)
}

// No edit is ever answered with a stale verdict: a comment moves the line
// a panic reports, a changed body fails, a changed API does not build.
func TestEditsAreNeverStale(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	ck := &checker.Checker{Build: privateBuilder(t), Timeout: corpusTimeout, Reuse: true}
	dir := folder(t, map[string]string{"circuitbreaker.go": breaker})
	save := func(src string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "circuitbreaker.go"), []byte(src), 0o644))
	}
	res := check(t, ck, ex, dir)
	require.Equal(t, checker.Pass, res.Status, describe(res))

	panics := edit(t, breaker, "\tcase \"half_open\":\n\t\tb.state = \"open\"\n", "\tcase \"half_open\":\n\t\tpanic(\"TODO: half_open\") // PANIC\n")
	frame := func(src string) string {
		save(src)
		res := check(t, ck, ex, dir)
		require.Equal(t, checker.Fail, res.Status, describe(res))
		f := res.FirstFailure().Failure
		require.NotNil(t, f, describe(res))
		require.Equal(t, harness.Panicked, f.Kind)
		return f.Frame
	}
	line := func(src string) string {
		for i, l := range strings.Split(src, "\n") {
			if strings.Contains(l, "// PANIC") {
				return fmt.Sprintf("circuitbreaker/circuitbreaker.go:%d", i+1)
			}
		}
		return ""
	}
	assert.True(t, strings.HasSuffix(frame(panics), line(panics)))

	t.Run("comment only", func(t *testing.T) {
		commented := edit(t, panics, "package circuitbreaker\n", "// Package circuitbreaker\n// trips.\npackage circuitbreaker\n")
		got := frame(commented)
		assert.True(t, strings.HasSuffix(got, line(commented)), "frame %q, want …%s", got, line(commented))
	})
	t.Run("body only", func(t *testing.T) {
		save(breaker)
		require.Equal(t, checker.Pass, check(t, ck, ex, dir).Status)
		save(waitGT(t))
		res := check(t, ck, ex, dir)
		assert.Equal(t, checker.Fail, res.Status, describe(res))
		assert.Nil(t, res.Problem)
	})
	t.Run("API", func(t *testing.T) {
		save(breaker)
		require.Equal(t, checker.Pass, check(t, ck, ex, dir).Status)
		save(edit(t, breaker, "func (b *CircuitBreaker) State() string", "func (b *CircuitBreaker) Status() string"))
		res := check(t, ck, ex, dir)
		require.Equal(t, checker.Error, res.Status, describe(res))
		assert.Equal(t, checker.ProblemAPI, res.Problem.Kind)
	})
	t.Run("back to the start", func(t *testing.T) {
		save(breaker)
		assert.Equal(t, checker.Pass, check(t, ck, ex, dir).Status)
	})
}

// A concurrent exercise whose learner's program is that of an earlier
// check, and whose sources show the race detector's build nothing new,
// gives that check's result, the race detector's verdict included,
// without building or running anything: a comment-only save of a pool
// costs what one of any exercise costs. A directive that only the race
// detector's build obeys is no comment: the pool is built and run again.
//
// A grader, which reuses no result, runs the stress tests of an unchanged
// pool under the race detector again, in the program the first check
// built with it, and builds a changed one with the race detector anew.
// The learner and the grader share one Builder, so that the pool's first
// check, with its build under the race detector, serves both.
func TestConcurrentCommentSaveIsReused(t *testing.T) {
	ex := exercise(t, "bulkheadpool")
	b := privateBuilder(t)
	ck := &checker.Checker{Build: b, Timeout: corpusTimeout, Reuse: true}
	grader := &checker.Checker{Build: b, Timeout: corpusTimeout}
	dir := reference(t, ex)
	name := filepath.Join(dir, "bulkheadpool.go")
	first := check(t, ck, ex, dir)
	require.Equal(t, checker.Pass, first.Status, describe(first))
	if first.Concurrency != checker.ConcurrencyRace {
		t.Skip("no race detector here: " + first.Concurrency)
	}
	src, err := os.ReadFile(name)
	require.NoError(t, err)

	t.Run("grader, unchanged", func(t *testing.T) {
		before := b.Stats()
		again := check(t, grader, ex, dir)
		assert.Equal(t, checker.Pass, again.Status, describe(again))
		assert.Equal(t, checker.ConcurrencyRace, again.Concurrency)
		assert.Equal(t, build.Stats{}, built(b, before))
	})

	require.NoError(t, os.WriteFile(name, append(src, "\n// Done.\n"...), 0o644))
	before := b.Stats()
	again := check(t, ck, ex, dir)
	assert.Equal(t, checker.Pass, again.Status, describe(again))
	assert.Equal(t, checker.ConcurrencyRace, again.Concurrency)
	assert.Equal(t, build.Stats{Compiles: 1}, built(b, before), "the learner's package alone, and no race build")

	t.Run("grader, comment", func(t *testing.T) {
		// The learner's check above reused its result: the grader's
		// is the first race build of the changed code.
		before := b.Stats()
		again := check(t, grader, ex, dir)
		assert.Equal(t, checker.ConcurrencyRace, again.Concurrency)
		assert.Equal(t, 1, built(b, before).RaceBuilds)
	})

	// In place of the doc comment, so that no line moves and the
	// learner's program stays the same.
	norace := strings.Replace(string(src), "// InUse returns how many slots are taken.\n", "//go:norace\n", 1)
	require.NotEqual(t, string(src), norace)
	require.NoError(t, os.WriteFile(name, []byte(norace), 0o644))
	before = b.Stats()
	again = check(t, ck, ex, dir)
	assert.Equal(t, checker.Pass, again.Status, describe(again))
	assert.Equal(t, 1, built(b, before).RaceBuilds, "a directive for the race detector's build is built with it")
}

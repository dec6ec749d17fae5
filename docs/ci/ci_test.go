// Package ci_test checks the grading recipes of docs/ci as their consumers
// read them: the Kubernetes manifests decoded into the Kubernetes API's
// types as strictly as the API server decodes them, so that a misspelt or
// misplaced field fails here instead of being dropped by kubectl; what
// each recipe must hold to run as written (the volumes it mounts defined,
// with the access mode its pods need, fsGroup for the image's user, a
// merge that waits for every shard, one seed for all shards); and the
// Kubernetes recipe run, its scripts as the YAML has them, on a class.
// actionlint checks the GitHub workflow (make lint-ci).
package ci_test

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// TestCIShards: the GitHub and GitLab recipes grade N shards with one
// seed from the run, merge all N, publish JUnit, and cache kurs keyed on
// its commit and course.
func TestCIShards(t *testing.T) {
	gh, err := os.ReadFile("github-grade.yml")
	require.NoError(t, err)
	var w struct {
		Env  map[string]string
		Jobs map[string]struct {
			Needs    any
			Strategy struct{ Matrix struct{ Shard []int } }
			Steps    []struct {
				Uses string
				With map[string]any
				Run  string
			}
		}
	}
	require.NoError(t, yaml.Unmarshal(gh, &w))
	n, err := strconv.Atoi(w.Env["SHARDS"])
	require.NoError(t, err)
	assert.Len(t, w.Jobs["shard"].Strategy.Matrix.Shard, n)
	assert.Equal(t, "${{ github.run_id }}", w.Env["SEED"])
	var cached, keyed bool
	for _, s := range w.Jobs["kurs"].Steps {
		if s.Uses == "actions/cache@v4" {
			cached = fmt.Sprint(s.With["key"]) == "${{ steps.key.outputs.key }}"
		}
		if strings.Contains(s.Run, "rev-parse HEAD") && strings.Contains(s.Run, "hashFiles('course/**')") {
			keyed = true
		}
	}
	assert.True(t, cached, "kurs and its caches are cached")
	assert.True(t, keyed, "the key is the kurs commit and the course")
	for _, job := range []string{"shard", "merge"} {
		restored := false
		for _, s := range w.Jobs[job].Steps {
			restored = restored || s.Uses == "actions/cache/restore@v4" && s.With["key"] == "${{ needs.kurs.outputs.key }}"
		}
		assert.True(t, restored, "%s restores kurs from the cache", job)
	}
	for _, s := range w.Jobs["shard"].Steps {
		if strings.Contains(s.Run, "kurs grade") {
			assert.Contains(t, s.Run, `--seed "$SEED"`)
		}
	}
	// The course in the key is the course that grades: every kurs
	// command passes --course course where the folder exists.
	calls := 0
	for name, job := range w.Jobs {
		for _, s := range job.Steps {
			for _, line := range strings.Split(s.Run, "\n") {
				if !strings.Contains(line, ".kurs/bin/kurs ") {
					continue
				}
				calls++
				assert.Contains(t, line, `.kurs/bin/kurs "${course[@]}" `, "%s: %s", name, line)
			}
			if strings.Contains(s.Run, ".kurs/bin/kurs ") {
				assert.Contains(t, s.Run, "if [ -d course ]; then course=(--course course); fi", name)
			}
		}
	}
	assert.GreaterOrEqual(t, calls, 4, "init, version, grade, merge")
	for _, job := range []string{"kurs", "merge"} {
		checkout := false
		for _, s := range w.Jobs[job].Steps {
			checkout = checkout || s.Uses == "actions/checkout@v4" && s.With["sparse-checkout"] == "course"
		}
		assert.True(t, checkout, "%s has the course", job)
	}

	gl, err := os.ReadFile("gitlab-grade.yml")
	require.NoError(t, err)
	var g map[string]any
	require.NoError(t, yaml.Unmarshal(gl, &g))
	job := func(name string) map[string]any {
		j, ok := g[name].(map[string]any)
		require.True(t, ok, name)
		return j
	}
	assert.EqualValues(t, n, job("grade")["parallel"], "as many shards as the other recipes")
	assert.Equal(t, "$CI_PIPELINE_ID", job("variables")["KURS_SEED"])
	reports := job("merge")["artifacts"].(map[string]any)["reports"].(map[string]any)
	assert.Equal(t, "junit.xml", reports["junit"], "the class's JUnit is the pipeline's test report")
	cache := job(".kurs-cache")["cache"].(map[string]any)
	assert.Equal(t, "kurs-$KURS_COMMIT-$KURS_COURSE", cache["key"])
	// The binary passes from job to job as an artifact, which GitLab
	// guarantees, not in the cache, which is best-effort.
	assert.NotContains(t, cache["paths"], ".kurs/bin")
	assert.Equal(t, []any{".kurs/bin/kurs"}, job("kurs")["artifacts"].(map[string]any)["paths"])
	for _, name := range []string{"grade", "merge"} {
		fromKurs := false
		for _, n := range job(name)["needs"].([]any) {
			if n, ok := n.(map[string]any); ok && n["job"] == "kurs" && n["artifacts"] == true {
				fromKurs = true
			}
		}
		assert.True(t, fromKurs, "%s takes kurs from the kurs job's artifacts", name)
		assert.Contains(t, fmt.Sprint(job(name)["script"]), ".kurs/bin/kurs grade")
	}
	assert.Regexp(t, regexp.MustCompile(`--format junit --output junit\.xml`), string(gl))
}

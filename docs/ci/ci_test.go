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
	key := job(".kurs-cache")["cache"].(map[string]any)["key"]
	assert.Equal(t, "kurs-$KURS_COMMIT-$KURS_COURSE", key)
	assert.Regexp(t, regexp.MustCompile(`--format junit --output junit\.xml`), string(gl))
}

// Package ci_test checks the grading recipes of docs/ci as their consumers
// read them: the Kubernetes manifests decoded strictly into the
// Kubernetes API's types, so that a misspelt or misplaced field fails
// here instead of being dropped by kubectl; and what each recipe must hold
// to run as written (the volumes it mounts defined, with the access mode
// its pods need, fsGroup for the image's user, a merge that waits for
// every shard, one seed for all shards). actionlint checks the GitHub
// workflow (make lint-ci).
package ci_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"sigs.k8s.io/yaml"
)

// manifests decodes every document of a multi-document YAML file strictly
// into the type of its kind.
type manifests struct {
	claims   map[string]*corev1.PersistentVolumeClaim
	jobs     map[string]*batchv1.Job
	pods     map[string]*corev1.Pod
	policies []*networkingv1.NetworkPolicy
}

func load(t *testing.T, name string) *manifests {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	m := &manifests{claims: map[string]*corev1.PersistentVolumeClaim{}, jobs: map[string]*batchv1.Job{}, pods: map[string]*corev1.Pod{}}
	for i, doc := range bytes.Split(data, []byte("\n---\n")) {
		var head struct{ APIVersion, Kind string }
		require.NoError(t, yaml.Unmarshal(doc, &head), "document %d", i+1)
		var obj any
		switch head.APIVersion + " " + head.Kind {
		case "v1 PersistentVolumeClaim":
			c := &corev1.PersistentVolumeClaim{}
			obj, m.claims[claimName(t, doc)] = c, c
		case "batch/v1 Job":
			j := &batchv1.Job{}
			obj = j
			defer func() { m.jobs[j.Name] = j }()
		case "v1 Pod":
			p := &corev1.Pod{}
			obj = p
			defer func() { m.pods[p.Name] = p }()
		case "networking.k8s.io/v1 NetworkPolicy":
			p := &networkingv1.NetworkPolicy{}
			obj = p
			m.policies = append(m.policies, p)
		default:
			t.Fatalf("document %d: no test knows %s %s", i+1, head.APIVersion, head.Kind)
		}
		require.NoError(t, yaml.UnmarshalStrict(doc, obj), "document %d (%s) does not decode strictly", i+1, head.Kind)
	}
	return m
}

func claimName(t *testing.T, doc []byte) string {
	var c corev1.PersistentVolumeClaim
	require.NoError(t, yaml.UnmarshalStrict(doc, &c))
	return c.Name
}

// TestKubernetes: the Kubernetes recipe runs as written.
func TestKubernetes(t *testing.T) {
	m := load(t, "k8s-grade-job.yaml")
	grade, merge := m.jobs["kurs-grade"], m.jobs["kurs-merge"]
	require.NotNil(t, grade, "the shards' Job")
	require.NotNil(t, merge, "the merge Job")

	// The shards: an Indexed Job whose pods each grade their part.
	require.NotNil(t, grade.Spec.CompletionMode)
	assert.Equal(t, batchv1.IndexedCompletion, *grade.Spec.CompletionMode)
	require.NotNil(t, grade.Spec.Completions)
	n := int(*grade.Spec.Completions)
	args := strings.Join(grade.Spec.Template.Spec.Containers[0].Args, " ")
	assert.Contains(t, args, fmt.Sprintf(`--shard "$$shard/%d"`, n), "--shard counts the Job's completions")
	assert.Contains(t, args, "shard=$$((JOB_COMPLETION_INDEX + 1))", "the index counts from 0, --shard from 1")
	assert.Contains(t, args, "--seed", "every shard grades with one seed")
	assert.NotContains(t, args, " -j", "-j follows the pod's CPU limit by itself")
	seedFrom := grade.Spec.Template.Spec.Containers[0].Env
	require.Len(t, seedFrom, 1)
	assert.Equal(t, "metadata.labels['batch.kubernetes.io/controller-uid']", seedFrom[0].ValueFrom.FieldRef.FieldPath,
		"the seed comes from the Job's uid: the same in every pod, known to no one before")

	// The merge waits for exactly the shards the Job makes, and merges them.
	require.Len(t, merge.Spec.Template.Spec.InitContainers, 1)
	wait := strings.Join(merge.Spec.Template.Spec.InitContainers[0].Args, " ")
	mergeArgs := strings.Join(merge.Spec.Template.Spec.Containers[0].Args, " ")
	for k := 1; k <= n; k++ {
		assert.Contains(t, wait, fmt.Sprintf("/results/shard-%d.json", k), "the merge waits for shard %d", k)
		assert.Contains(t, mergeArgs, fmt.Sprintf("shard-%d.json", k))
	}
	assert.NotContains(t, wait, fmt.Sprintf("shard-%d.json", n+1))
	assert.Contains(t, mergeArgs, "kurs grade merge")
	assert.Contains(t, mergeArgs, "junit", "the class's JUnit too")

	// Storage: every claim a pod mounts is defined, with an access mode
	// that lets all the pods that mount it at once do so from any node.
	users := map[string]int{}
	for _, spec := range podSpecs(m) {
		for _, v := range spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				users[v.PersistentVolumeClaim.ClaimName]++
			}
		}
	}
	require.NotEmpty(t, users)
	for claim := range users {
		c, ok := m.claims[claim]
		if assert.True(t, ok, "the claim %s is mounted but not defined", claim) {
			assert.Contains(t, c.Spec.AccessModes, corev1.ReadWriteMany, "%s: shards on several nodes write or read it at once", claim)
			assert.False(t, c.Spec.Resources.Requests.Storage().IsZero(), "%s asks for its size", claim)
		}
	}

	// Every pod runs as the image's user, with the volumes its group's.
	for name, spec := range podSpecs(m) {
		sc := spec.SecurityContext
		require.NotNil(t, sc, name)
		if assert.NotNil(t, sc.RunAsUser, name) {
			assert.EqualValues(t, 10001, *sc.RunAsUser, "%s: the Dockerfile's grader", name)
		}
		if assert.NotNil(t, sc.FSGroup, "%s: fsGroup makes the volumes writable for uid 10001", name) {
			assert.EqualValues(t, 10001, *sc.FSGroup, name)
		}
		assert.False(t, spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken, "%s: no API token", name)
		for _, c := range append(spec.InitContainers, spec.Containers...) {
			require.NotNil(t, c.SecurityContext, "%s/%s", name, c.Name)
			assert.False(t, *c.SecurityContext.AllowPrivilegeEscalation, "%s/%s", name, c.Name)
		}
	}
	cpu := grade.Spec.Template.Spec.Containers[0].Resources.Limits.Cpu()
	assert.False(t, cpu.IsZero(), "a CPU limit, which -j follows")

	// No network for the grading pods.
	require.Len(t, m.policies, 1)
	sel := m.policies[0].Spec.PodSelector.MatchLabels
	for name, spec := range map[string]*batchv1.Job{"kurs-grade": grade, "kurs-merge": merge} {
		for k, v := range sel {
			assert.Equal(t, v, spec.Spec.Template.Labels[k], "%s: the policy selects its pods", name)
		}
	}
	assert.Empty(t, m.policies[0].Spec.Egress)
	assert.Empty(t, m.policies[0].Spec.Ingress)
}

func podSpecs(m *manifests) map[string]corev1.PodSpec {
	specs := map[string]corev1.PodSpec{}
	for name, j := range m.jobs {
		specs[name] = j.Spec.Template.Spec
	}
	for name, p := range m.pods {
		specs[name] = p.Spec
	}
	return specs
}

// TestKubernetesStrict: the strict decoding is strict: a field that does
// not exist where it stands, which kubectl would drop without a word,
// fails. (Like encoding/json it matches names regardless of case, so
// "completionmode" would pass.)
func TestKubernetesStrict(t *testing.T) {
	for _, doc := range []string{
		"apiVersion: batch/v1\nkind: Job\nspec:\n  completionsMode: Indexed\n",
		"apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      fsGroup: 10001\n",
	} {
		var j batchv1.Job
		assert.Error(t, yaml.UnmarshalStrict([]byte(doc), &j), doc)
	}
}

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

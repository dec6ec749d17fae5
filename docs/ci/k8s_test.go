package ci_test

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// manifests holds the documents of a multi-document YAML file, each
// decoded into the type of its kind.
type manifests struct {
	claims   map[string]*corev1.PersistentVolumeClaim
	jobs     map[string]*batchv1.Job
	pods     map[string]*corev1.Pod
	policies []*networkingv1.NetworkPolicy
}

// strict decodes one YAML document into obj as the API server decodes a
// request: YAML turned into JSON (refusing duplicate keys), then JSON
// field names matched case-sensitively, and any unknown or duplicate field
// an error. (sigs.k8s.io/yaml's UnmarshalStrict matches names regardless
// of case, as encoding/json does, so "fsgroup" passed it.)
func strict(doc []byte, obj any) error {
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return err
	}
	errs, err := kjson.UnmarshalStrict(js, obj)
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return fmt.Errorf("%v", errs)
	}
	return nil
}

func load(t *testing.T, name string) *manifests {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	m, err := decode(data)
	require.NoError(t, err)
	return m
}

// decode decodes every document of data strictly into the type of its
// kind.
func decode(data []byte) (*manifests, error) {
	m := &manifests{claims: map[string]*corev1.PersistentVolumeClaim{}, jobs: map[string]*batchv1.Job{}, pods: map[string]*corev1.Pod{}}
	for i, doc := range bytes.Split(data, []byte("\n---\n")) {
		var head struct{ APIVersion, Kind string }
		if err := yaml.Unmarshal(doc, &head); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		var err error
		switch head.APIVersion + " " + head.Kind {
		case "v1 PersistentVolumeClaim":
			c := &corev1.PersistentVolumeClaim{}
			err = strict(doc, c)
			m.claims[c.Name] = c
		case "batch/v1 Job":
			j := &batchv1.Job{}
			err = strict(doc, j)
			m.jobs[j.Name] = j
		case "v1 Pod":
			p := &corev1.Pod{}
			err = strict(doc, p)
			m.pods[p.Name] = p
		case "networking.k8s.io/v1 NetworkPolicy":
			p := &networkingv1.NetworkPolicy{}
			err = strict(doc, p)
			m.policies = append(m.policies, p)
		default:
			return nil, fmt.Errorf("document %d: no test knows %s %s", i+1, head.APIVersion, head.Kind)
		}
		if err != nil {
			return nil, fmt.Errorf("document %d (%s) does not decode strictly: %w", i+1, head.Kind, err)
		}
	}
	return m, nil
}

// TestKubernetes: the Kubernetes recipe holds what it needs to run as
// written; TestKubernetesRuns runs it.
func TestKubernetes(t *testing.T) {
	m := load(t, "k8s-grade-job.yaml")
	grade := m.jobs["kurs-grade"]
	require.NotNil(t, grade, "the shards' Job")
	require.Len(t, m.jobs, 1, "the shards join their documents themselves, in their Job's folder")

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
	for _, c := range append(grade.Spec.Template.Spec.InitContainers, grade.Spec.Template.Spec.Containers...) {
		require.Len(t, c.Env, 1, c.Name)
		assert.Equal(t, "metadata.labels['batch.kubernetes.io/controller-uid']", c.Env[0].ValueFrom.FieldRef.FieldPath,
			"%s: the run's folder and seed come from the Job's uid: the same in every pod, known to no one before", c.Name)
	}
	for k := 1; k <= n; k++ {
		assert.Contains(t, args, fmt.Sprintf("shard-%d.json", k), "the last shard waits for and joins every shard")
	}
	assert.NotContains(t, args, fmt.Sprintf("shard-%d.json", n+1))
	assert.Contains(t, args, "kurs grade merge", "the last shard joins them")
	assert.Contains(t, args, "junit", "the class's JUnit too")

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

	// No network for any pod of the recipe, the files pod included.
	require.Len(t, m.policies, 1)
	sel := m.policies[0].Spec.PodSelector.MatchLabels
	require.NotEmpty(t, sel)
	labels := map[string]map[string]string{"kurs-grade": grade.Spec.Template.Labels}
	for name, p := range m.pods {
		labels[name] = p.Labels
	}
	for name, l := range labels {
		for k, v := range sel {
			assert.Equal(t, v, l[k], "%s: the policy selects its pods", name)
		}
	}
	assert.ElementsMatch(t, []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress}, m.policies[0].Spec.PolicyTypes)
	assert.Empty(t, m.policies[0].Spec.Egress)
	assert.Empty(t, m.policies[0].Spec.Ingress)

	// The storage notes say where fsGroup applies, and what to do where
	// it does not.
	head := string(must(os.ReadFile("k8s-grade-job.yaml")))
	for _, s := range []string{"NFS", "EFS", "fsGroupPolicy", "writable for uid or gid 10001"} {
		assert.Contains(t, head, s)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
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

// TestKubernetesStrict: the decoding is as strict as the API server's: a
// field that does not exist where it stands, misspelt in its case only
// too, which kubectl would drop without a word, fails, naming the field.
func TestKubernetesStrict(t *testing.T) {
	for doc, field := range map[string]string{
		"apiVersion: batch/v1\nkind: Job\nspec:\n  completionsMode: Indexed\n":                                         "spec.completionsMode",
		"apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      fsGroup: 10001\n":                       "spec.template.spec.fsGroup",
		"apiVersion: batch/v1\nkind: Job\nspec:\n  completionmode: Indexed\n":                                          "spec.completionmode",
		"apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      securityContext:\n        fsgroup: 1\n": "spec.template.spec.securityContext.fsgroup",
		"apiVersion: batch/v1\nkind: Job\nspec:\n  parallelism: 3\n  parallelism: 4\n":                                 "parallelism",
	} {
		err := strict([]byte(doc), &batchv1.Job{})
		if assert.Error(t, err, doc) {
			assert.Contains(t, err.Error(), field, doc)
		}
	}

	// The recipe itself, with the case-only typo the teacher planted.
	data := must(os.ReadFile("k8s-grade-job.yaml"))
	typo := bytes.Replace(data, []byte("        fsGroup: 10001\n"), []byte("        fsgroup: 10001\n"), 1)
	require.NotEqual(t, data, typo)
	_, err := decode(typo)
	if assert.Error(t, err, "the recipe with fsgroup decodes") {
		assert.Contains(t, err.Error(), `unknown field "spec.template.spec.securityContext.fsgroup"`)
	}
}

// TestKubernetesRuns runs the Kubernetes recipe as its header tells a
// teacher to, twice in a row on the same volumes: the kubectl steps of the
// header, and the scripts of the Job's containers as they stand in the
// YAML (after Kubernetes' own expansion of $(VAR) and $$), each pod a
// process with the pod's volumes as folders. kubectl cp follows its real
// rule: into a folder that exists, it copies the folder itself. The first
// run grades a class of 65, the second, as a teacher's next class does,
// one of 15 (each of the class's five kinds of submission three times,
// every shard a part): every run must grade all of its class's
// submissions, none of the last run's, and join them into exactly the
// bytes of one `kurs grade` over the class with the run's seed.
func TestKubernetesRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a class of 65 and one of 15, each twice")
	}
	const recipe = "k8s-grade-job.yaml"
	m := load(t, recipe)
	steps := kubectlSteps(t, recipe)
	bin := buildKurs(t)
	class := filepath.Join(t.TempDir(), "submissions")
	c := &cluster{t: t, m: m, bin: bin, volumes: map[string]string{}}
	for name := range m.claims {
		c.volumes[name] = t.TempDir()
	}
	var first []byte
	var firstUID string
	for i, size := range []int{65, 15} {
		run := i + 1
		require.NoError(t, os.RemoveAll(class))
		makeClass(t, class, size)
		uid := newUID(t)
		vars := map[string]string{}
		for _, step := range steps {
			c.do(step, uid, vars, filepath.Dir(class))
		}
		out := filepath.Join(filepath.Dir(class), "results")
		results, err := os.ReadFile(filepath.Join(out, "results.json"))
		require.NoError(t, err, "run %d: results.json fetched", run)
		var doc struct {
			Seed        uint64
			Submissions []struct{ ID string }
		}
		require.NoError(t, json.Unmarshal(results, &doc))
		assert.Len(t, doc.Submissions, size, "run %d: %d submissions in, %d graded out", run, size, size)
		seed := must(strconv.ParseUint(strings.ReplaceAll(uid, "-", "")[:12], 16, 64))
		assert.Equal(t, seed, doc.Seed, "run %d: the seed is the Job's", run)
		want := filepath.Join(t.TempDir(), "one.json")
		c.kurs(filepath.Dir(class), "grade", "--submissions", class, "--seed", strconv.FormatUint(seed, 10), "--format", "json", "--output", want)
		assert.Equal(t, string(must(os.ReadFile(want))), string(results), "run %d: the merged shards are one run's bytes", run)
		csv := must(os.ReadFile(filepath.Join(out, "grades.csv")))
		assert.Equal(t, size+1, bytes.Count(csv, []byte("\n")), "run %d: grades.csv has a row per submission", run)
		for _, f := range []string{"junit.xml", "report.html"} {
			assert.FileExists(t, filepath.Join(out, f), "run %d", run)
		}
		require.NoError(t, os.RemoveAll(out))
		if run == 1 {
			first, firstUID = results, uid
		}
	}
	// The first run's results are still its own, untouched by the second.
	kept := must(os.ReadFile(filepath.Join(c.volumes["kurs-results"], firstUID, "results.json")))
	assert.Equal(t, string(first), string(kept))

	// What the old recipe did: kubectl cp into a folder that exists puts
	// the class one level deeper. kurs refuses to grade that as one
	// submission, and names the folder to grade.
	deep := filepath.Join(c.volumes["kurs-submissions"], "class")
	require.NoError(t, os.Mkdir(deep, 0o755))
	kubectlCp(t, class, deep)
	cmd := exec.CommandContext(t.Context(), filepath.Join(bin, "kurs"), "grade", "--submissions", "class", "--lang", "en")
	cmd.Dir = c.volumes["kurs-submissions"]
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "%s", out)
	assert.Equal(t, 2, ee.ExitCode())
	assert.Contains(t, string(out), "Grade it with --submissions class/submissions.")
}

// A step is one kubectl command of the recipe's header.
type step struct {
	line   string
	assign string   // the shell variable that $(…) sets, if any
	args   []string // kubectl's arguments, unquoted
}

// kubectlSteps returns the kubectl commands that the header of the recipe
// tells a teacher to run, in their order.
func kubectlSteps(t *testing.T, name string) []step {
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	assign := regexp.MustCompile(`^(\w+)=\$\((kubectl .*)\)$`)
	var steps []step
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "#   ")
		if !ok || !strings.Contains(line, "kubectl ") {
			continue
		}
		line, _, _ = strings.Cut(line, "  #") // the comment beside it
		line = strings.TrimSpace(line)
		s := step{line: line}
		if m := assign.FindStringSubmatch(line); m != nil {
			s.assign, line = m[1], m[2]
		}
		require.True(t, strings.HasPrefix(line, "kubectl "), line)
		s.args = shellWords(t, strings.TrimPrefix(line, "kubectl "))
		steps = append(steps, s)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, steps)
	return steps
}

// shellWords splits s into words as sh does for words with single and
// double quotes but no escapes, leaving $ in place.
func shellWords(t *testing.T, s string) []string {
	var words []string
	var w strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0 && ch == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(ch)
		case ch == '\'' || ch == '"':
			quote, in = ch, true
		case ch == ' ':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			require.NotEqual(t, byte('\\'), ch, "no escapes in %s", s)
			w.WriteByte(ch)
			in = true
		}
	}
	require.Zero(t, quote, "unclosed quote in %s", s)
	if in {
		words = append(words, w.String())
	}
	return words
}

// cluster runs the recipe's pods as processes, each volume a folder.
type cluster struct {
	t       *testing.T
	m       *manifests
	bin     string            // the folder with kurs, the image's
	volumes map[string]string // a claim's folder
}

// do carries out one kubectl step of the header in the folder dir, for
// the Job whose uid is uid, with the shell variables vars.
func (c *cluster) do(s step, uid string, vars map[string]string, dir string) {
	t := c.t
	args := make([]string, len(s.args))
	for i, a := range s.args {
		args[i] = os.Expand(a, func(k string) string {
			v, ok := vars[k]
			require.True(t, ok, "%s: $%s is not set by an earlier step", s.line, k)
			return v
		})
	}
	switch {
	case s.assign != "":
		require.Equal(t, []string{"get", "job", "kurs-grade", "-o", "jsonpath={.metadata.uid}"}, args, s.line)
		vars[s.assign] = uid
	case args[0] == "delete" || args[0] == "apply":
		// The previous Job goes, the file's objects are there (the files
		// pod and the volumes from the last run, the Job new).
	case args[0] == "wait" && args[1] == "--for=condition=Ready":
		require.Contains(t, c.m.pods, strings.TrimPrefix(args[2], "pod/"), s.line)
	case args[0] == "wait" && args[1] == "--for=condition=complete":
		job := c.m.jobs[strings.TrimPrefix(args[2], "job/")]
		require.NotNil(t, job, s.line)
		c.runJob(job, uid)
	case args[0] == "cp":
		require.Len(t, args, 3, s.line)
		src, dst := c.local(args[1], dir), c.local(args[2], dir)
		kubectlCp(t, src, dst)
	case args[0] == "exec":
		require.Equal(t, "--", args[2], s.line)
		pod := c.m.pods[args[1]]
		require.NotNil(t, pod, s.line)
		cmd := exec.CommandContext(t.Context(), args[3], c.mapPaths(pod.Spec, pod.Spec.Containers[0], args[4:])...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", s.line, out)
	default:
		t.Fatalf("no simulation of %s", s.line)
	}
}

// local returns the folder of a kubectl cp argument: POD:PATH in the
// pod's volumes, else a path on the teacher's machine, relative to dir.
func (c *cluster) local(arg, dir string) string {
	pod, path, ok := strings.Cut(arg, ":")
	if !ok {
		return filepath.Join(dir, arg)
	}
	p := c.m.pods[pod]
	require.NotNil(c.t, p, arg)
	return c.mapPaths(p.Spec, p.Spec.Containers[0], []string{path})[0]
}

// mapPaths replaces the mount paths of the container's volumes in args by
// the volumes' folders.
func (c *cluster) mapPaths(spec corev1.PodSpec, ctr corev1.Container, args []string) []string {
	claim := map[string]string{}
	for _, v := range spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			claim[v.Name] = v.PersistentVolumeClaim.ClaimName
		}
	}
	var pairs []string
	for _, vm := range ctr.VolumeMounts {
		dir, ok := c.volumes[claim[vm.Name]]
		require.True(c.t, ok, "%s mounts %s, which is no claim of the recipe", ctr.Name, vm.Name)
		pairs = append(pairs, vm.MountPath, dir)
	}
	r := strings.NewReplacer(pairs...)
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = r.Replace(a)
	}
	return out
}

// runJob runs the pods of an Indexed Job at once, each its init
// containers and then its containers, as kubelet does, with the
// environment Kubernetes gives them.
func (c *cluster) runJob(job *batchv1.Job, uid string) {
	t := c.t
	n := 1
	if job.Spec.Completions != nil {
		n = int(*job.Spec.Completions)
	}
	var wg sync.WaitGroup
	for index := range n {
		wg.Go(func() {
			spec := job.Spec.Template.Spec
			for _, ctr := range append(spec.InitContainers, spec.Containers...) {
				env := map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(index)}
				for _, e := range ctr.Env {
					switch {
					case e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.labels['batch.kubernetes.io/controller-uid']":
						env[e.Name] = uid
					case e.ValueFrom == nil:
						env[e.Name] = expand(e.Value, env)
					default:
						t.Errorf("%s: no simulation of %s's source", ctr.Name, e.Name)
						return
					}
				}
				argv := append(slices.Clone(ctr.Command), ctr.Args...)
				for i := range argv {
					argv[i] = expand(argv[i], env)
				}
				argv = c.mapPaths(spec, ctr, argv)
				cmd := exec.CommandContext(t.Context(), argv[0], argv[1:]...)
				cmd.Env = append(os.Environ(), "PATH="+c.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
				for k, v := range env {
					cmd.Env = append(cmd.Env, k+"="+v)
				}
				cmd.Dir = c.bin
				out, err := cmd.CombinedOutput()
				if !assert.NoError(t, err, "pod %d, container %s:\n%s", index, ctr.Name, out) {
					return
				}
			}
		})
	}
	wg.Wait()
	require.False(t, t.Failed(), "every pod of %s succeeded", job.Name)
}

// expand does what Kubernetes does to a container's command, args and env
// values: $(NAME) becomes the variable's value when the container defines
// it, $$ becomes $, and everything else stays.
func expand(s string, env map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i:], ')')
			if end < 0 {
				b.WriteByte('$')
				continue
			}
			if v, ok := env[s[i+2:i+end]]; ok {
				b.WriteString(v)
				i += end
				continue
			}
			b.WriteString(s[i : i+end+1])
			i += end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

// kubectlCp copies the folder src to dst as kubectl cp does: when dst is
// a folder that exists, into it, as dst/<name of src>; else as dst.
func kubectlCp(t *testing.T, src, dst string) {
	if info, err := os.Stat(dst); err == nil && info.IsDir() {
		dst = filepath.Join(dst, filepath.Base(src))
	}
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
}

// newUID returns a random uid as Kubernetes gives a Job.
func newUID(t *testing.T) string {
	b := make([]byte, 16)
	_, err := rand.Read(b)
	require.NoError(t, err)
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// buildKurs builds kurs as the image holds it and returns its folder.
func buildKurs(t *testing.T) string {
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", filepath.Join(dir, "kurs"), "github.com/kurs-course/kurs/cmd/kurs")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return dir
}

// kurs runs kurs in dir and accepts exit status 0 and 1 (some exercise
// fails).
func (c *cluster) kurs(dir string, args ...string) {
	cmd := exec.CommandContext(c.t.Context(), filepath.Join(c.bin, "kurs"), args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil
	}
	require.NoError(c.t, err, "kurs %s: %s", strings.Join(args, " "), out)
}

// makeClass writes a class of n submissions into dir, as a teacher
// collects them: the reference solution, the code of each misconception
// of the circuit breaker, code that does not compile, an empty folder,
// and a solution that floods its output; each with a quiz answered
// rightly or wrongly.
func makeClass(t *testing.T, dir string, n int) {
	const ex = "../../exercises/circuitbreaker"
	solution := string(must(os.ReadFile(ex + "/solution/circuitbreaker.go")))
	var wrong []string
	require.NoError(t, fs.WalkDir(os.DirFS(ex+"/misconceptions"), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "circuitbreaker.go" {
			wrong = append(wrong, string(must(os.ReadFile(ex+"/misconceptions/"+p))))
		}
		return err
	}))
	require.NotEmpty(t, wrong)
	// 10,000 lines of 24 bytes: nearly four times the checker's output
	// cap and a pipe's buffer, so the cap cuts it; more lines only cost
	// a write each, in every shard and in the grading it is compared to.
	flood := strings.Replace(solution, "\npackage circuitbreaker\n",
		"\npackage circuitbreaker\n\nimport \"fmt\"\n\nfunc init() {\n\tfor range 10000 {\n\t\tfmt.Println(\"flood flood flood flood\")\n\t}\n}\n", 1)
	require.NotEqual(t, solution, flood)
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("student-%02d", i+1))
		var code string
		switch i % 5 {
		case 0:
			code = solution
		case 1:
			code = wrong[i%len(wrong)]
		case 2:
			code = "package circuitbreaker\n\nfunc New( {\n"
		case 3:
			require.NoError(t, os.MkdirAll(sub, 0o755))
			continue
		case 4:
			code = flood
		}
		answer := [2]string{`"D", "A"`, `"B", "A"`}[i%2]
		for name, text := range map[string]string{
			"circuitbreaker/circuitbreaker.go": code,
			"bulkheadquiz/bulkheadquiz.go":     "package bulkheadquiz\n\nvar Answer = [2]string{" + answer + "}\n",
		} {
			require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(sub, name)), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(sub, name), []byte(text), 0o644))
		}
	}
}

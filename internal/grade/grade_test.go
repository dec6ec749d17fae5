package grade_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/grade"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/testkit"
)

// corpus holds the learner submissions of the checker's tests; each has a
// want.json with the verdict of every exercise it holds (see its README).
const corpus = "../../checker/testdata/submissions"

// timeout is the time limit of a check here, as in the checker's corpus
// test: enough for the reference on a loaded machine, short enough that
// the endless loops of the hostile cases do not make the suite slow.
const timeout = 6 * time.Second

// quiet are ordinary submissions: right, wrong and broken ones.
var quiet = []string{"all-pass", "mixed-verdicts", "cb-fail-wait-gt", "cb-pass-mutex", "tb-fail-no-cap",
	"tb-pass-refill-helper", "quiz-fail-one-wrong", "cb-error-syntax", "hostile-init-panic"}

// hostile are submissions that hang, blow up their memory or stack, or
// flood their output.
var hostile = []string{"cb-fail-busy-wait", "cb-fail-memory-bomb", "cb-fail-stack-overflow",
	"hostile-init-endless-loop", "hostile-flood-stdout", "tb-fail-wait-for-token"}

// hangs are the time limits of the hostile submissions that loop until
// the limit ends them, a processor busy all the while; every other
// submission keeps timeout. As in the checker's corpus test: an endless
// init ends as the same timeout after any limit, and the loops that
// come after some steps get testkit.HangTimeout, long enough to reach
// the step that hangs on a loaded machine. The memory bomb and the stack
// overflow must meet their own limits first, and keep timeout.
var hangs = map[string]time.Duration{
	"hostile-init-endless-loop": time.Second,
	"cb-fail-busy-wait":         testkit.HangTimeout,
	"tb-fail-wait-for-token":    testkit.HangTimeout,
}

// limited returns subs with the time limits of hangs.
func limited(subs []grade.Submission) []grade.Submission {
	for i, s := range subs {
		if d, ok := hangs[s.ID]; ok {
			subs[i] = grade.WithTimeout(s, d)
		}
	}
	return subs
}

// others make the batch one a class could hand in: forged output in two
// exercises, a refused import, a misnamed package, a file that is not
// UTF-8, a panic inside a method, a quiz set in init, and a submission
// that holds none of the exercises of ids (graded as missing every one).
var others = []string{"hostile-forged-pass-output", "hostile-import-os", "hostile-not-utf8", "tb-error-wrong-package",
	"quiz-pass-init", "cb-fail-panic-method", "backoff-pass-doubling"}

// ids are the exercises these tests grade: those of the corpus.
var ids = []string{"circuitbreaker", "tokenbucket", "bulkheadquiz"}

// exercises returns the exercises named by ids from the repository's
// course. Other exercises of the course, finished or not, are not these
// tests' business.
func exercises(t *testing.T) []*course.Exercise {
	t.Helper()
	c, err := course.Load(os.DirFS("../.."))
	var exs []*course.Exercise
	for _, id := range ids {
		ex, ok := c.Exercise(id)
		require.True(t, ok, "exercise %s: %v", id, err)
		exs = append(exs, ex)
	}
	return exs
}

func newGrader(exs []*course.Exercise, jobs int) *grade.Grader {
	return &grade.Grader{Checker: &checker.Checker{Build: testBuild, Timeout: timeout}, Exercises: exs, Jobs: jobs, Warm: true}
}

// corpusSubmissions returns the named corpus cases as submissions.
func corpusSubmissions(names ...string) []grade.Submission {
	subs := make([]grade.Submission, len(names))
	for i, n := range names {
		subs[i] = grade.Submission{ID: n, Dir: filepath.Join(corpus, n)}
	}
	return subs
}

// rendered returns a submission's results in every format kurs grade
// writes, durations removed: what must be the same on every run.
func rendered(t *testing.T, r grade.Result) string {
	t.Helper()
	p := i18n.New("en")
	var b bytes.Buffer
	require.NoError(t, report.JSON(&b, report.NewDocument(p, r.Graded)))
	run := report.Run{Course: "sha256:c0ffee", Seed: 1, Dir: "ws"}
	require.NoError(t, report.JUnit(&b, p, r.Graded, run))
	require.NoError(t, report.Gradescope(&b, p, r.Graded, run))
	require.NoError(t, report.GitHub(&b, p, r.Graded, "ws"))
	require.NoError(t, report.GitHubSummary(&b, p, r.Graded, run))
	require.NoError(t, explain.WriteText(&b, p, r.Graded, explain.TextOptions{Verbose: true}))
	var exIDs []string
	for _, g := range r.Graded {
		exIDs = append(exIDs, g.Exercise.ID)
	}
	require.NoError(t, report.CSV(&b, exIDs, []report.Submission{r.Submission}, report.CSVRun{Seed: run.Seed}))
	return durations.ReplaceAllString(b.String(), "")
}

// durations matches the only fields that may differ between two runs:
// times, and JUnit's timestamp of the run's start.
var durations = regexp.MustCompile(`( time="[0-9.]+"| timestamp="[0-9T:-]+"|"execution_time": [0-9]+,)`)

func byID(results []grade.Result) map[string]grade.Result {
	m := map[string]grade.Result{}
	for _, r := range results {
		m[r.ID] = r
	}
	return m
}

// TestBatch grades a batch of the corpus's submissions (quiet, hostile
// and others, see the lists) as kurs grade does: found in one folder, two
// at a time. It checks what grading adds to the checks: progress, the
// order of the results, that every verdict is the one of want.json in a
// batch too, that hostile neighbours change no one's result, that the same
// submission gives the same bytes every time, and that the JUnit of every
// submission is what Jenkins xunit accepts. The submissions that loop
// until the time limit are graded with the short limits of hangs, both
// times.
//
// The verdicts of the corpus's other submissions, and of every exercise
// beyond those of ids, are pinned by the checker's corpus test
// (checker/corpus, which also holds their JUnit to the schema) and, for
// the cases that threaten kurs grade's output, by the command line's
// (internal/cli); grading all of them here too would check each one again
// for no property of a batch.
func TestBatch(t *testing.T) {
	exs := exercises(t)
	names := slices.Concat(quiet, hostile, others)
	dir := t.TempDir()
	for _, n := range names {
		require.NoError(t, os.CopyFS(filepath.Join(dir, n), os.DirFS(filepath.Join(corpus, n))))
	}
	subs, err := grade.Find(dir, exs)
	require.NoError(t, err)
	require.Len(t, subs, len(names), "every submission of the folder is found")
	subs = limited(subs)

	var mu sync.Mutex
	var progress []int
	g := newGrader(exs, 2)
	g.Progress = func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, len(subs), total)
		progress = append(progress, done)
	}
	all, err := g.Run(context.Background(), subs)
	require.NoError(t, err)
	require.Len(t, all, len(subs))
	assert.Len(t, progress, len(subs), "progress once per submission")
	assert.True(t, slices.IsSorted(progress) && progress[len(progress)-1] == len(subs), "progress counts up to the total: %v", progress)

	t.Run("verdicts", func(t *testing.T) {
		for i, r := range all {
			assert.Equal(t, subs[i].ID, r.ID, "results come in the order of the submissions")
			t.Run(r.ID, func(t *testing.T) { checkVerdicts(t, exs, r) })
		}
	})

	t.Run("hostile neighbours change nothing", func(t *testing.T) {
		// The quiet submissions alone, one check at a time: what each
		// would get if it were the only one graded.
		alone, err := newGrader(exs, 1).Run(context.Background(), corpusSubmissions(quiet...))
		require.NoError(t, err)
		inBatch := byID(all)
		for _, r := range alone {
			assert.Empty(t, r.Errs, r.ID)
			assert.Equal(t, rendered(t, r), rendered(t, inBatch[r.ID]), "%s graded alone and next to hostile submissions", r.ID)
		}
		for _, id := range hostile {
			assert.Empty(t, inBatch[id].Errs, "%s: a hostile submission is the learner's failure, not kurs's", id)
		}
	})

	t.Run("deterministic", func(t *testing.T) {
		// Quiet and hostile submissions interleaved, hostile ones first
		// so that they hold the slots: every byte but the durations is
		// what the first batch gave.
		var names []string
		for i := range max(len(quiet), len(hostile)) {
			if i < len(hostile) {
				names = append(names, hostile[i])
			}
			if i < len(quiet) {
				names = append(names, quiet[i])
			}
		}
		again, err := newGrader(exs, 2).Run(context.Background(), limited(corpusSubmissions(names...)))
		require.NoError(t, err)
		first := byID(all)
		for _, r := range again {
			if r.ID == "cb-fail-memory-bomb" || r.ID == "cb-fail-stack-overflow" {
				// Whether the runtime's last words of a memory bomb are
				// captured depends on when the limit strikes; the
				// verdict does not. A stack that grows to the runtime's
				// limit takes seconds of processor time: on a busy
				// machine the time limit may strike first, and the
				// failed test is a timeout instead of a crash.
				assert.Equal(t, statuses(first[r.ID]), statuses(r), r.ID)
				continue
			}
			assert.Equal(t, rendered(t, first[r.ID]), rendered(t, r), "%s graded twice", r.ID)
		}
	})

	t.Run("junit validates", func(t *testing.T) { junitValidates(t, all) })
}

func statuses(r grade.Result) []checker.Status {
	var s []checker.Status
	for _, g := range r.Graded {
		s = append(s, g.Result.Status)
	}
	return s
}

// checkVerdicts compares a corpus submission's results with its want.json
// in the exercises exs (those of ids); the exercises it does not hold are
// errors without files.
func checkVerdicts(t *testing.T, exs []*course.Exercise, r grade.Result) {
	data, err := os.ReadFile(filepath.Join(corpus, r.ID, "want.json"))
	require.NoError(t, err)
	var want struct{ Exercises map[string]checker.Status }
	require.NoError(t, json.Unmarshal(data, &want))
	assert.Empty(t, r.Errs)
	require.Len(t, r.Graded, len(exs))
	for i, g := range r.Graded {
		assert.Equal(t, exs[i], g.Exercise, "results come in the order of the exercises")
		res := g.Result
		w, held := want.Exercises[g.Exercise.ID]
		if !held {
			assert.Equal(t, checker.Error, res.Status, g.Exercise.ID)
			if assert.NotNil(t, res.Problem, g.Exercise.ID) {
				assert.Equal(t, checker.ProblemNoFiles, res.Problem.Kind, g.Exercise.ID)
			}
			continue
		}
		assert.Equal(t, w, res.Status, "%s/%s", r.ID, g.Exercise.ID)
	}
}

func TestFind(t *testing.T) {
	exs := exercises(t)
	dir := t.TempDir()
	mk := func(rel ...string) {
		for _, r := range rel {
			p := filepath.Join(dir, filepath.FromSlash(r))
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			if strings.HasSuffix(r, "/") {
				require.NoError(t, os.MkdirAll(p, 0o755))
			} else {
				require.NoError(t, os.WriteFile(p, []byte("package x\n"), 0o644))
			}
		}
	}
	outside := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(outside, "circuitbreaker"), 0o755))
	mk(
		"subs/anna/kurs.toml", "subs/anna/circuitbreaker/a.go",
		"subs/ben/tokenbucket/b.go",
		"subs/cem/cem-main/bulkheadquiz/c.go", // an archive with its top folder
		"subs/dora/",                          // empty: graded, every exercise without files
		"subs/emil/one/", "subs/emil/two/",    // no exercise, two folders: not guessed
		"subs/.git/config", "subs/__MACOSX/x", "subs/_template/circuitbreaker/t.go", "subs/notes.txt",
		"subs/gina/",
	)
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "subs/fritz")))             // put there by the grader
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "subs/gina/inner-folder"))) // put there by the learner

	subs, err := grade.Find(filepath.Join(dir, "subs"), exs)
	require.NoError(t, err)
	got := map[string]string{}
	var ids []string
	for _, s := range subs {
		rel, err := filepath.Rel(dir, s.Dir)
		require.NoError(t, err)
		got[s.ID] = filepath.ToSlash(rel)
		ids = append(ids, s.ID)
	}
	assert.Equal(t, []string{"anna", "ben", "cem", "dora", "emil", "fritz", "gina"}, ids)
	assert.Equal(t, map[string]string{
		"anna":  "subs/anna",
		"ben":   "subs/ben",
		"cem":   "subs/cem/cem-main",
		"dora":  "subs/dora",
		"emil":  "subs/emil",
		"fritz": "subs/fritz",
		"gina":  "subs/gina",
	}, got)

	_, err = grade.Find(filepath.Join(dir, "nope"), exs)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestNested: a folder with no exercise of its own but folders that hold
// exercises is told apart, so that a class is never graded as one empty
// submission.
func TestNested(t *testing.T) {
	exs := exercises(t)
	dir := t.TempDir()
	for _, r := range []string{
		"class/submissions/anna/circuitbreaker/a.go", "class/submissions/ben/ben-main/kurs.toml",
		"class/submissions/cem/", "class/submissions/.git/circuitbreaker/x.go",
		"anna/circuitbreaker/a.go", "anna/v2/circuitbreaker/a.go",
		"archive/top/circuitbreaker/a.go",
		"empty/",
		"attempts/one/tokenbucket/t.go", "attempts/two/tokenbucket/t.go", "attempts/notes/readme.txt",
	} {
		p := filepath.Join(dir, filepath.FromSlash(r))
		if strings.HasSuffix(r, "/") {
			require.NoError(t, os.MkdirAll(p, 0o755))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("package x\n"), 0o644))
	}
	for folder, want := range map[string][]string{
		"class/submissions": {"anna", "ben"},
		"class":             {"anna", "ben"}, // its only folder is the class
		"anna":              nil,             // has an exercise of its own
		"archive":           nil,             // its only folder has one
		"empty":             nil,
		"attempts":          {"one", "two"},
	} {
		root := grade.Root(filepath.Join(dir, folder), exs)
		assert.Equal(t, want, grade.Nested(root, exs), folder)
	}
}

// copyCase copies a corpus case's exercise folders to dir.
func copyCase(t *testing.T, name, dir string) {
	t.Helper()
	src := filepath.Join(corpus, name)
	require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
	require.NoError(t, os.Remove(filepath.Join(dir, "want.json")))
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
}

// TestOnlyExerciseSourcesCount grades a wrong breaker twice: as it is, and
// dressed up with everything a submission might bring to cheat or by
// accident (its own go.mod, kurs.toml, tests, a copy of its wrong code as
// kurs's reference, a fake test program and harness, an empty suite). The
// results must be the same to the byte.
func TestOnlyExerciseSourcesCount(t *testing.T) {
	exs := exercises(t)
	plain, dressed := t.TempDir(), t.TempDir()
	copyCase(t, "cb-fail-wait-gt", plain)
	copyCase(t, "cb-fail-wait-gt", dressed)
	wrong, err := os.ReadFile(filepath.Join(plain, "circuitbreaker", "circuitbreaker.go"))
	require.NoError(t, err)
	write(t, dressed, map[string]string{
		"kurs.toml":                 "format = 1\ncourse = \"/no/such/course\"\nlang = \"de\"\n",
		"go.mod":                    "module github.com/kurs-course/kurs\n\ngo 1.99\n\ntoolchain go1.99.0\n\nreplace github.com/kurs-course/kurs/internal/harness => ./fake\n",
		"go.work":                   "go 1.99\n\nuse .\n",
		"vendor/modules.txt":        "# github.com/kurs-course/kurs/internal/harness v0.0.0\n",
		"circuitbreaker/go.mod":     "module circuitbreaker\n",
		"circuitbreaker/cb_test.go": "package circuitbreaker\n\nimport (\"os\"; \"testing\")\n\nfunc TestMain(m *testing.M) { println(\"PASS\"); os.Exit(0) }\n",
		"circuitbreaker/suite.json": `{"tests": []}`,
		"circuitbreaker/.hidden.go": "package circuitbreaker\n\nimport \"os\"\n\nvar _ = os.Exit\n",
		"suite.json":                `{"tests": []}`,
		"internal/reference/circuitbreaker/circuitbreaker.go": string(wrong),
		"internal/run/driver.go":                              "package main\n\nfunc main() {}\n",
		"harness/guard/guard.go":                              "package guard\n",
		"exercises/circuitbreaker/testdata/suite.json":        `{"tests": []}`,
		"exercises/circuitbreaker/solution/circuitbreaker.go": string(wrong),
	})
	g := &grade.Grader{Checker: &checker.Checker{Build: testBuild, Timeout: timeout}, Exercises: exs[:1], Jobs: 2}
	results, err := g.Run(context.Background(), []grade.Submission{{ID: "s", Dir: plain}, {ID: "s", Dir: dressed}})
	require.NoError(t, err)
	require.Equal(t, checker.Fail, results[0].Graded[0].Result.Status, "the plain wrong breaker fails")
	assert.Equal(t, rendered(t, results[0]), rendered(t, results[1]))
}

// TestLinkedExerciseFolder: an exercise folder that is a symbolic link (to
// a classmate's solution, or out of the submission) is not the learner's
// work and counts as missing.
func TestLinkedExerciseFolder(t *testing.T) {
	exs := exercises(t)
	dir := t.TempDir()
	right, err := filepath.Abs(filepath.Join(corpus, "all-pass", "circuitbreaker"))
	require.NoError(t, err)
	require.NoError(t, os.Symlink(right, filepath.Join(dir, "circuitbreaker")))
	g := &grade.Grader{Checker: &checker.Checker{Build: testBuild, Timeout: timeout}, Exercises: exs[:1]}
	results, err := g.Run(context.Background(), []grade.Submission{{ID: "linked", Dir: dir}})
	require.NoError(t, err)
	res := results[0].Graded[0].Result
	assert.Equal(t, checker.Error, res.Status)
	require.NotNil(t, res.Problem)
	assert.Equal(t, checker.ProblemNoFiles, res.Problem.Kind)
}

// TestKursFailure: when kurs itself cannot check (here: no go command),
// every result is an internal error, reported apart from the verdicts.
func TestKursFailure(t *testing.T) {
	exs := exercises(t)
	b, err := build.New(build.Options{Go: filepath.Join(t.TempDir(), "no-go")})
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	g := &grade.Grader{Checker: &checker.Checker{Build: b, Timeout: timeout}, Exercises: exs}
	results, err := g.Run(context.Background(), corpusSubmissions("all-pass"))
	require.NoError(t, err)
	r := results[0]
	assert.Len(t, r.Errs, len(exs))
	for i, e := range r.Errs {
		assert.Equal(t, "all-pass", e.Submission)
		assert.Contains(t, []string{"circuitbreaker", "tokenbucket", "bulkheadquiz"}, e.Exercise)
		assert.Regexp(t, `^all-pass/[a-z]+: `, e.Error(), i)
		assert.Error(t, errors.Unwrap(e))
	}
	for _, g := range r.Graded {
		assert.Equal(t, checker.Error, g.Result.Status)
		require.NotNil(t, g.Result.Problem)
		assert.Equal(t, checker.ProblemInternal, g.Result.Problem.Kind)
		assert.Equal(t, g.Exercise.Points, g.Result.MaxScore)
	}
}

// TestSubmissionTimeout: a submission's own time limit (see WithTimeout)
// replaces the Checker's for its checks alone. Under a Checker's limit
// that no program meets, a correct breaker given a limit of its own
// passes, and the same breaker beside it without one does not.
func TestSubmissionTimeout(t *testing.T) {
	exs := exercises(t)
	g := &grade.Grader{Checker: &checker.Checker{Build: testBuild, Timeout: time.Nanosecond}, Exercises: exs[:1], Jobs: 2}
	subs := corpusSubmissions("cb-pass-mutex", "cb-pass-mutex")
	subs[0] = grade.WithTimeout(subs[0], timeout)
	results, err := g.Run(context.Background(), subs)
	require.NoError(t, err)
	own, checkers := results[0].Graded[0].Result, results[1].Graded[0].Result
	assert.Equal(t, checker.Pass, own.Status, "with a limit of its own:\n%s", testkit.Describe(own))
	assert.NotEqual(t, checker.Pass, checkers.Status, "with the Checker's limit:\n%s", testkit.Describe(checkers))
}

func TestCancelled(t *testing.T) {
	exs := exercises(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	results, err := (&grade.Grader{Checker: &checker.Checker{}, Exercises: exs}).Run(ctx, corpusSubmissions(quiet...))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, results)
}

// TestDocument: the batch document is {"version": 1, "course": …,
// "seed": …, "lang": …, "exercise_ids": […], "submissions": […]}, and each entry is
// exactly the document of one submission plus its "id".
func TestDocument(t *testing.T) {
	exs := exercises(t)
	g := &grade.Grader{Checker: &checker.Checker{Build: testBuild, Seed: 5, Timeout: timeout}, Exercises: exs[2:]}
	results, err := g.Run(context.Background(), corpusSubmissions("quiz-fail-swapped", "quiz-pass-init"))
	require.NoError(t, err)

	p := i18n.New("de")
	var b bytes.Buffer
	require.NoError(t, report.JSON(&b, grade.NewDocument(p, "sha256:c0ffee", "v1.2.0+0123456789ab", 5, exs[2:], results)))
	var doc struct {
		Version     int
		Course      string
		Kurs        string
		Seed        uint64
		Lang        string
		ExerciseIDs []string `json:"exercise_ids"`
		Submissions []map[string]json.RawMessage
	}
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&doc))
	assert.Equal(t, 1, doc.Version)
	assert.Equal(t, uint64(5), doc.Seed)
	assert.Equal(t, "sha256:c0ffee", doc.Course)
	assert.Equal(t, "v1.2.0+0123456789ab", doc.Kurs, "the kurs build that graded")
	assert.Equal(t, "de", doc.Lang, "the language of the messages")
	assert.Equal(t, []string{"bulkheadquiz"}, doc.ExerciseIDs)
	require.Len(t, doc.Submissions, 2)
	for i, entry := range doc.Submissions {
		assert.JSONEq(t, `"`+results[i].ID+`"`, string(entry["id"]))
		delete(entry, "id")
		got, err := json.Marshal(entry)
		require.NoError(t, err)
		want, err := json.Marshal(report.NewDocument(p, results[i].Graded))
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got), results[i].ID)
	}
	assert.Contains(t, string(doc.Submissions[0]["status"]), "fail")
	assert.Contains(t, string(doc.Submissions[1]["status"]), "pass")
}

// A class's chunk shares one program; with Alone, no program holds two
// submissions' code: each submission's exercises are linked on their own,
// with the same verdicts.
func TestAloneSharesNoProgram(t *testing.T) {
	exs := exercises(t)
	subs := corpusSubmissions("all-pass", "cb-pass-switch", "tb-pass-mutex")
	run := func(alone bool) ([]grade.Result, build.Stats) {
		b := testkit.PrivateBuilder(t)
		g := &grade.Grader{Checker: &checker.Checker{Build: b, Timeout: timeout, Seed: 9}, Exercises: exs, Jobs: 1, Alone: alone}
		results, err := g.Run(context.Background(), subs)
		require.NoError(t, err)
		return results, b.Stats()
	}
	shared, sharedStats := run(false)
	alone, aloneStats := run(true)
	assert.Equal(t, 1, sharedStats.Links, "one program for the chunk: %+v", sharedStats)
	assert.Equal(t, len(subs), aloneStats.Links, "one program for each submission: %+v", aloneStats)
	for i := range subs {
		assert.Equal(t, rendered(t, shared[i]), rendered(t, alone[i]), subs[i].ID)
	}
}

package tracegen_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/tracegen"
)

// breakerSuite describes the circuit breaker's random traces as data, the
// way its hand-written driver draws them: ticks that never go backwards,
// Allow followed by a reported result, and the odd stray report.
const breakerSuite = `{
  "observe": "State",
  "generate": {
    "new": [{"int": [1, 4]}, {"int": [0, 6]}],
    "steps": [10, 49],
    "time": {"step": [0, 3], "jump": [0, 7], "jump_chance": 0.125},
    "ops": [
      {"call": "Allow", "args": ["time"], "weight": 9,
       "then": {"when": "true", "calls": [{"call": "Success"}, {"call": "Failure", "args": ["time"]}]}},
      {"call": "Success", "weight": 0.5},
      {"call": "Failure", "args": ["time"], "weight": 0.5}
    ]
  },
  "tests": [
    {"name": "edge/threshold1-opens-at-once", "new": [1, 4], "steps": [
      {"call": "Allow", "args": [0], "want": "true", "obs": "closed"},
      {"call": "Failure", "args": [0], "obs": "open"}]},
    {"name": "random", "random": 1000}
  ]
}`

// generatedCourse returns the embedded course with the circuit breaker's
// driver.go replaced by a generated one and its suite by suite.
func generatedCourse(t *testing.T, suite string) *course.Course {
	t.Helper()
	src := kurs.Content()
	m := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasPrefix(p, "exercises/") && !strings.HasPrefix(p, "exercises/circuitbreaker/") {
			return nil // only the breaker is needed
		}
		data, err := fs.ReadFile(src, p)
		m[p] = &fstest.MapFile{Data: data}
		return err
	})
	require.NoError(t, err)
	var sol []course.File
	for p, f := range m {
		if dir, name := filepath.Split(p); dir == "exercises/circuitbreaker/solution/" {
			sol = append(sol, course.File{Name: name, Data: f.Data})
		}
	}
	api, err := tracegen.ParseAPI(sol)
	require.NoError(t, err)
	var s tracegen.Suite
	require.NoError(t, json.Unmarshal([]byte(suite), &s))
	driver, err := tracegen.Driver("circuitbreaker", api, s)
	require.NoError(t, err)
	require.True(t, tracegen.IsGenerated(driver))
	m["exercises/circuitbreaker/testdata/driver.go"] = &fstest.MapFile{Data: driver}
	m["exercises/circuitbreaker/testdata/suite.json"] = &fstest.MapFile{Data: []byte(suite)}
	c, err := course.Load(m)
	require.NoError(t, err)
	return c
}

func check(t *testing.T, c *course.Course, file string) *checker.Result {
	t.Helper()
	ex, _ := c.Exercise("circuitbreaker")
	dir := filepath.Join(t.TempDir(), "circuitbreaker")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "circuitbreaker.go"), data, 0o644))
	res, err := (&checker.Checker{}).Check(context.Background(), ex, dir)
	require.NoError(t, err)
	return res
}

// TestGeneratedDriverGrades runs the real checker with a generated driver:
// the reference passes, and a breaker whose Success forgets to reset the
// count fails a random trace, shrunk, with the first differing step.
func TestGeneratedDriverGrades(t *testing.T) {
	c := generatedCourse(t, breakerSuite)

	res := check(t, c, "../../exercises/circuitbreaker/solution/circuitbreaker.go")
	require.Equal(t, checker.Pass, res.Status, "%+v %+v", res.Problem, res.FirstFailure())

	res = check(t, c, "../../checker/testdata/submissions/cb-fail-success-no-reset/circuitbreaker/circuitbreaker.go")
	require.Equal(t, checker.Fail, res.Status, "%+v", res.Problem)
	require.Len(t, res.Tests, 2)
	assert.Equal(t, checker.Pass, res.Tests[0].Status, "the fixed trace does not touch Success")
	f := res.Tests[1].Failure
	require.NotNil(t, f, "the random traces must catch the missing reset")
	assert.Equal(t, harness.Mismatch, f.Kind)
	assert.Equal(t, "State()", f.Observe)
	assert.Positive(t, f.Original, "a random trace, shrunk")
	assert.LessOrEqual(t, f.Step, f.Original)
}

// TestGeneratedAPIRefusesWrongSignature: the API check derived from the
// reference pins the API, so a learner's Allow without the tick is an API
// problem.
func TestGeneratedAPIRefusesWrongSignature(t *testing.T) {
	c := generatedCourse(t, breakerSuite)
	res := check(t, c, "../../checker/testdata/submissions/cb-error-wrong-signature/circuitbreaker/circuitbreaker.go")
	require.Equal(t, checker.Error, res.Status)
	require.NotNil(t, res.Problem)
	assert.Equal(t, checker.ProblemAPI, res.Problem.Kind, res.Problem.Detail)
}

func TestParseAPI(t *testing.T) {
	api, err := tracegen.ParseAPI([]course.File{{Name: "w.go", Data: []byte(`package fixedwindow

type Limiter struct{ n int }

func New(limit, window int) *Limiter { return &Limiter{} }

func (l *Limiter) Allow(now int) bool { return true }
func (l Limiter) Count() int          { return l.n }
func (l *Limiter) reset()              {}
func (l *Limiter) Both() (int, error)  { return 0, nil }
func helper() int                      { return 0 }
`)}})
	require.NoError(t, err)
	assert.Equal(t, "fixedwindow", api.Package)
	assert.Equal(t, "Limiter", api.Type)
	assert.True(t, api.Pointer)
	assert.Equal(t, []tracegen.Param{{Name: "limit", Type: "int"}, {Name: "window", Type: "int"}}, api.New)
	var names []string
	for _, m := range api.Methods {
		names = append(names, m.Name)
	}
	assert.Equal(t, []string{"Allow", "Count", "Both"}, names, "exported methods only, in source order")
	both, _ := api.Method("Both")
	assert.NotEmpty(t, both.Usable(), "two results cannot be compared in a trace")
	allow, _ := api.Method("Allow")
	assert.Empty(t, allow.Usable())

	api, err = tracegen.ParseAPI([]course.File{{Name: "q.go", Data: []byte("package quiz\n\nvar Answer = [2]string{\"A\", \"B\"}\n")}})
	require.NoError(t, err)
	assert.Nil(t, api, "no New: not a trace exercise")
}

func TestSuiteCheck(t *testing.T) {
	api := &tracegen.API{Type: "L", New: []tracegen.Param{{Name: "limit", Type: "int"}},
		Methods: []tracegen.Method{
			{Name: "Allow", Params: []tracegen.Param{{Name: "now", Type: "int"}}, Result: "bool"},
			{Name: "Load", Params: []tracegen.Param{{Name: "f", Type: "func()"}}},
		}}
	var s tracegen.Suite
	require.NoError(t, json.Unmarshal([]byte(`{
		"observe": "Allow",
		"generate": {
			"new": [{"one_of": [1.5]}],
			"steps": [9, 3],
			"time": {"step": [0, 1], "jump_chance": 2},
			"ops": [{"call": "Allow"}, {"call": "Reset"}, {"call": "Load", "args": [1]},
				{"call": "Allow", "args": [{"int": [5, 1]}]}]}}`), &s))
	var got []string
	for _, m := range tracegen.Check(s, api) {
		got = append(got, m.Path+" "+m.Kind)
	}
	assert.Equal(t, []string{
		"observe observe",
		"generate.new.0 whole",
		"generate.steps range",
		"generate.time.jump_chance chance",
		"generate.ops.0.args arg_count",
		"generate.ops.1.call no_method",
		"generate.ops.2.call unusable",
		"generate.ops.3.args.0.int order",
	}, got)
	_, err := tracegen.Driver("l", api, s)
	var ms tracegen.Mistakes
	require.ErrorAs(t, err, &ms, "Driver refuses a description that does not fit")
	assert.Len(t, ms, len(got))

	var a tracegen.Arg
	assert.Error(t, json.Unmarshal([]byte(`"clock"`), &a))
	assert.Error(t, json.Unmarshal([]byte(`{"int": [1, 2], "one_of": [3]}`), &a))
	assert.Error(t, json.Unmarshal([]byte(`{"ints": [1, 2]}`), &a))
}

package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/testkit"
)

// privateBuilder is testkit.PrivateBuilder.
var privateBuilder = testkit.PrivateBuilder

// sessionRecords returns the kept answers of sessions in b's cache: a
// replay of the reference (an object with "driver") or the replies to a
// misconception's claimed traces (a list); the checker's results are
// objects without "driver".
func sessionRecords(t *testing.T, b *build.Builder) (replays, claims []string) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(b.Dir(), "results", "*.json"))
	require.NoError(t, err)
	for _, name := range names {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(data, &v))
		switch v := v.(type) {
		case []any:
			claims = append(claims, name)
		case map[string]any:
			if _, ok := v["driver"]; ok {
				replays = append(replays, name)
			}
		}
	}
	return replays, claims
}

// mark changes every kept session answer of b so that a validation that
// takes it says so: the reference panics with "kept" on its first fixed
// trace, and every claimed trace shows "kept" after its first step.
func mark(t *testing.T, b *build.Builder) {
	t.Helper()
	replays, claims := sessionRecords(t, b)
	require.NotEmpty(t, replays)
	require.NotEmpty(t, claims)
	for _, name := range replays {
		var out replayOut
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &out))
		require.NotEmpty(t, out.Traces)
		out.Traces[0].Panic, out.Traces[0].Step = "kept", 1
		data, err = json.Marshal(&out)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(name, data, 0o600))
	}
	for _, name := range claims {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		var replies []map[string]any
		require.NoError(t, json.Unmarshal(data, &replies))
		for _, r := range replies {
			res := r["Results"].([]any)
			require.Greater(t, len(res), 1)
			res[1] = map[string]any{"obs": "kept"}
		}
		data, err = json.Marshal(replies)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(name, data, 0o600))
	}
}

// kept lists what of the marks (see mark) a validation reported.
func kept(r *Report) []string {
	var out []string
	for _, p := range r.Problems {
		switch {
		case p.Kind == TracePanics && p.Detail == "kept":
			out = append(out, "replay")
		case p.Kind == MisconceptionClaim && argOf(p, "Actual") == "kept":
			out = append(out, "claim "+argOf(p, "Who").(string))
		}
	}
	return out
}

// claimedTrace is a trace.json of the course's misconception
// add-sets-the-count whose claims are true.
const claimedTrace = `{"traces": [
  {"new": [3], "steps": [
    {"call": "Add", "args": [2], "got": {"obs": "2"}, "want": {"obs": "5"}}
  ]}
]}
`

// A validation run again takes what each session answered before (the
// reference on its traces, a misconception and the reference on the
// traces its text claims) as long as nothing the session depends on
// changed: a mark put into the kept answers shows. A validation that does
// not reuse, and one after an edit of a file the session reads, runs it
// again and reports what the code does now.
func TestUnchangedSessionsAreReused(t *testing.T) {
	t.Parallel()
	const claimsFile = "exercises/counter/misconceptions/add-sets-the-count/trace.json"
	const suiteFile = "exercises/counter/testdata/suite.json"
	const refFile = "exercises/counter/solution/counter.go"
	m := newCourse(t)
	m[claimsFile] = &fstest.MapFile{Data: []byte(claimedTrace)}
	b := privateBuilder(t)
	reuse := Options{Checker: &checker.Checker{Build: b, Reuse: true}}
	fresh := Options{Checker: &checker.Checker{Build: b}}

	require.Empty(t, where(run(t, m, reuse).Problems))
	mark(t, b)
	assert.ElementsMatch(t, []string{"replay", "claim code", "claim reference"}, kept(run(t, m, reuse)), "the kept answers stand")
	assert.Empty(t, where(run(t, m, fresh).Problems), "without reuse, every session runs")
	assert.Len(t, kept(run(t, m, reuse)), 3, "a validation without reuse keeps nothing either")

	// Another claimed trace: the misconception's and the reference's
	// sessions run again, the reference's replay stays as it was.
	m[claimsFile] = &fstest.MapFile{Data: []byte(strings.Replace(claimedTrace, `]}
]}`, `]},
  {"new": [1], "steps": [
    {"call": "Add", "args": [1], "got": {"obs": "1"}, "want": {"obs": "2"}}
  ]}
]}`, 1))}
	assert.Equal(t, []string{"replay"}, kept(run(t, m, reuse)))

	// A trace of the suite changed (the second step adds -2, not -1):
	// the reference is replayed again.
	suite := string(m[suiteFile].Data)
	edited := strings.Replace(suite, `{"call": "Add", "args": [-1], "obs": "4"}`, `{"call": "Add", "args": [-2], "obs": "3"}`, 1)
	require.NotEqual(t, suite, edited)
	m[suiteFile] = &fstest.MapFile{Data: []byte(edited)}
	assert.Empty(t, where(run(t, m, reuse).Problems))

	// The reference changed: Add(2) adds 3, a mistake the hidden tests
	// miss. Every session of the exercise runs again, and the claimed
	// trace shows the mistake.
	mark(t, b)
	m[refFile] = &fstest.MapFile{Data: []byte(strings.Replace(string(m[refFile].Data), "c.n += d", "if d == 2 {\n\t\td = 3\n\t}\n\tc.n += d", 1))}
	r := run(t, m, reuse)
	assert.Empty(t, kept(r))
	require.Equal(t, []string{claimsFile + ":3 misconception_claim"}, where(r.Problems))
	assert.Equal(t, "reference", argOf(r.Problems[0], "Who"))
	assert.Equal(t, "6", argOf(r.Problems[0], "Actual"))
}

// A concurrent exercise's sessions are never kept, as the checker keeps
// no result of one that the race detector's run did not decide.
func TestConcurrentSessionsAreNotKept(t *testing.T) {
	t.Parallel()
	m := newCourse(t)
	m["exercises/counter/misconceptions/add-sets-the-count/trace.json"] = &fstest.MapFile{Data: []byte(claimedTrace)}
	meta := "exercises/counter/exercise.json"
	var ex map[string]any
	require.NoError(t, json.Unmarshal(m[meta].Data, &ex))
	ex["concurrent"] = true
	data, err := json.Marshal(ex)
	require.NoError(t, err)
	m[meta] = &fstest.MapFile{Data: data}

	b := privateBuilder(t)
	require.Empty(t, where(run(t, m, Options{Checker: &checker.Checker{Build: b, Reuse: true}}).Problems))
	replays, claims := sessionRecords(t, b)
	assert.Empty(t, replays)
	assert.Empty(t, claims)
}

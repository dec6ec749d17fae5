package cli

import (
	"bytes"
	"context"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/report"
)

// runEnv runs kurs with the environment env and returns its exit status,
// stdout and stderr.
func runEnv(env map[string]string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(context.Background(), args, IO{Out: &out, Err: &errOut, Getenv: func(k string) string { return env[k] }, Getwd: os.Getwd})
	return code, out.String(), errOut.String()
}

// TestEveryFormatNamesWhatGraded: every format kurs grade writes, for one
// submission and for a class, on stdout and with --output, and what kurs
// grade merge writes, names the content hash of the course and the kurs
// build that graded, as kurs version prints them; so does the GitHub job
// summary, and the annotations on stdout without one.
func TestEveryFormatNamesWhatGraded(t *testing.T) {
	dir := t.TempDir()
	answer := []byte("package bulkheadquiz\n\nvar Answer = [2]string{\"D\", \"B\"}\n")
	for _, sub := range []string{"ws", "class/anna", "class/ben"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, sub, "bulkheadquiz"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, sub, "bulkheadquiz", "bulkheadquiz.go"), answer, 0o644))
	}
	env := map[string]string{}
	code, version, stderr := runEnv(env, "version")
	require.Zero(t, code, stderr)
	course := regexp.MustCompile(`(?m)^course (sha256:[0-9a-f]{64})$`).FindStringSubmatch(version)
	build := regexp.MustCompile(`(?m)^build (.+)$`).FindStringSubmatch(version)
	require.NotNil(t, course, version)
	require.NotNil(t, build, version)
	assert.NotEqual(t, "devel", build[1], "a build without version or revision is told apart by its executable")
	names := func(where, s string) {
		t.Helper()
		s = html.UnescapeString(s) // the class report writes + as &#43;
		assert.Contains(t, s, course[1], "%s names the course", where)
		assert.Contains(t, s, build[1], "%s names the kurs build", where)
	}

	ws := filepath.Join(dir, "ws")
	class := filepath.Join(dir, "class")
	shard := filepath.Join(dir, "class.json")
	code, _, stderr = runEnv(env, "grade", "bulkheadquiz", "--submissions", class, "--format", "json", "--output", shard, "--seed", "3")
	require.Equal(t, 1, code, stderr)
	for _, f := range report.Formats() {
		for _, lang := range []string{"en", "de"} {
			if f.Single != nil {
				code, out, stderr := runEnv(env, "grade", "bulkheadquiz", "--workspace", ws, "--format", f.Name, "--seed", "3", "--lang", lang)
				require.Equal(t, 1, code, "%s: %s", f.Name, stderr)
				names(f.Name+" of one submission on stdout ("+lang+")", out)
				file := filepath.Join(dir, "one."+f.Name)
				code, out, stderr = runEnv(env, "grade", "bulkheadquiz", "--workspace", ws, "--format", f.Name, "--seed", "3", "--output", file, "--lang", lang)
				require.Equal(t, 1, code, "%s: %s", f.Name, stderr)
				names(f.Name+" of one submission in --output ("+lang+")", string(must(os.ReadFile(file))))
				if f.Name != textFormat { // else stdout stays empty
					names(f.Name+" of one submission: stdout beside --output ("+lang+")", out)
				}
			}
			if f.Batch != nil {
				code, out, stderr := runEnv(env, "grade", "bulkheadquiz", "--submissions", class, "--format", f.Name, "--seed", "3", "--lang", lang)
				require.Equal(t, 1, code, "%s: %s", f.Name, stderr)
				names(f.Name+" of a class on stdout ("+lang+")", out)
				file := filepath.Join(dir, "class."+f.Name)
				code, out, stderr = runEnv(env, "grade", "bulkheadquiz", "--submissions", class, "--format", f.Name, "--seed", "3", "--output", file, "--lang", lang)
				require.Equal(t, 1, code, "%s: %s", f.Name, stderr)
				names(f.Name+" of a class in --output ("+lang+")", string(must(os.ReadFile(file))))
				if f.Name != textFormat {
					names(f.Name+" of a class: stdout beside --output ("+lang+")", out)
				}
				code, out, stderr = runEnv(env, "grade", "merge", shard, "--format", f.Name, "--lang", lang)
				require.Equal(t, 1, code, "%s: %s", f.Name, stderr)
				names(f.Name+" of merged shards ("+lang+")", out)
			}
		}
	}

	// The GitHub job summary.
	summary := filepath.Join(dir, "summary.md")
	code, _, stderr = runEnv(map[string]string{"GITHUB_STEP_SUMMARY": summary}, "grade", "bulkheadquiz", "--workspace", ws, "--format", "github", "--seed", "3")
	require.Equal(t, 1, code, stderr)
	names("the GitHub job summary", string(must(os.ReadFile(summary))))
	assert.True(t, strings.HasPrefix(build[1], "devel+") || strings.HasPrefix(build[1], "v"), build[1])
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

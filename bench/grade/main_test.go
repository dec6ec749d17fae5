package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
)

// The baseline's verdicts come from go test's own output: a package that
// passes, one whose test fails, one that does not compile and one that
// vet stops, tested in one go test as a lane tests a submission, with
// and without JSON events.
func TestGoTestVerdicts(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":           "module bench\n\ngo 1.22\n",
		"right/right.go":   "package right\n\nfunc F() int { return 1 }\n",
		"right/x_test.go":  "package right\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tif F() != 1 {\n\t\tt.Fatal(F())\n\t}\n}\n",
		"wrong/wrong.go":   "package wrong\n\nfunc F() int { return 2 }\n",
		"wrong/x_test.go":  "package wrong\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tif F() != 1 {\n\t\tt.Fatal(F())\n\t}\n}\n",
		"broken/b.go":      "package broken\n\nfunc F() int { return \"1\" }\n",
		"broken/x_test.go": "package broken\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n",
		"vetted/v.go":      "package vetted\n",
		"vetted/x_test.go": "package vetted\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n)\n\nfunc TestF(t *testing.T) { fmt.Printf(\"%d\\n\", \"x\") }\n",
	}
	for name, data := range files {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	want := map[string]string{"right": "pass", "wrong": "fail", "broken": "error", "vetted": "error"}
	for _, k := range []baselineKind{baselineKinds["go-test"], baselineKinds["exercism"]} {
		cmd := exec.Command("go", append(k.args, "./right", "./wrong", "./broken", "./vetted")...)
		cmd.Dir = dir
		cmd.Env = benchutil.BaselineEnv()
		out, err := cmd.CombinedOutput()
		require.Error(t, err, "go test passed:\n%s", out)
		if k.json {
			out = jsonOutput(out)
		}
		assert.Equal(t, want, goTestVerdicts(out), "%s: go test said:\n%s", k.name, out)
	}
}

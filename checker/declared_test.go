package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// declared names each name with the file and line of its declaration,
// relative to the workspace, and leaves out the API check's own file and
// the learner's tests.
func TestDeclaredWhere(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"cb.go":      "package cb\n\ntype CircuitBreaker struct{}\n\nfunc Nwe() *CircuitBreaker { return nil }\n\nfunc (b *CircuitBreaker) Stat() string { return \"\" }\n",
		"more.go":    "package cb\n\nvar (\n\tlimit = 3\n\t_     = 4\n)\n",
		apiFile:      "package cb\n\nvar _ = New\n",
		"cb_test.go": "package cb\n\nfunc helper() {}\n",
		"notes.txt":  "func Note() {}\n",
		// Left out of the build: their names are not declared.
		"old.go":       "//go:build ignore\n\npackage cb\n\nfunc New() *CircuitBreaker { return nil }\n",
		"cb_plan9.go":  "package cb\n\nfunc Allow() {}\n",
		"race_only.go": "//go:build race\n\npackage cb\n\nfunc Success() {}\n",
	}
	for name, src := range files {
		assert.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	names, at, excluded, none := declared(dir, "circuitbreaker")
	assert.Equal(t, []ExcludedFile{
		{File: "circuitbreaker/cb_plan9.go"},
		{File: "circuitbreaker/old.go", Constraint: "//go:build ignore"},
		{File: "circuitbreaker/race_only.go", Constraint: "//go:build race"},
	}, excluded)
	assert.False(t, none, "cb.go and more.go are built")
	assert.Equal(t, []string{"CircuitBreaker", "CircuitBreaker.Stat", "Nwe", "limit"}, names)
	assert.Equal(t, map[string]string{
		"CircuitBreaker":      "circuitbreaker/cb.go:3",
		"CircuitBreaker.Stat": "circuitbreaker/cb.go:7",
		"Nwe":                 "circuitbreaker/cb.go:5",
		"limit":               "circuitbreaker/more.go:4",
	}, at)
}

package checker_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/harness"
)

// A file of several megabytes is refused before anything reads it whole
// into the build: a learner's file is a few kilobytes.
func TestHugeFileIsRefused(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	huge := "package circuitbreaker\n\n// " + strings.Repeat("x", 3<<20) + "\n"
	res := check(t, &checker.Checker{Build: testBuild, Timeout: corpusTimeout}, ex, folder(t, map[string]string{
		"circuitbreaker.go": breaker,
		"padding.go":        huge,
	}))
	require.Equal(t, checker.Error, res.Status, describe(res))
	require.NotNil(t, res.Problem)
	assert.Equal(t, checker.ProblemTooLarge, res.Problem.Kind)
	assert.Equal(t, "circuitbreaker/padding.go", res.Problem.File)
}

// A sparse file that claims a terabyte is refused by its first megabyte:
// kurs never allocates by a file's claimed size.
func TestSparseTerabyteIsRefused(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	dir := folder(t, map[string]string{"circuitbreaker.go": breaker})
	name := filepath.Join(dir, "huge.go")
	require.NoError(t, os.WriteFile(name, []byte("package circuitbreaker\n"), 0o644))
	require.NoError(t, os.Truncate(name, 1<<40))
	res := check(t, &checker.Checker{Build: testBuild, Timeout: corpusTimeout}, ex, dir)
	require.Equal(t, checker.Error, res.Status, describe(res))
	assert.Equal(t, checker.ProblemTooLarge, res.Problem.Kind)
	assert.Equal(t, "1099511627776", res.Problem.Detail, "the size the file claims, not what was read")
}

// An observed value of megabytes reaches the result cut to a bound.
func TestHugeObservationIsCut(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	src := edit(t, breaker, `func (b *CircuitBreaker) State() string { return b.state }`,
		`func (b *CircuitBreaker) State() string { return strings.Repeat(b.state, 1<<19) }`,
		"package circuitbreaker\n", "package circuitbreaker\n\nimport \"strings\"\n")
	res := check(t, &checker.Checker{Build: testBuild, Timeout: corpusTimeout}, ex, folder(t, map[string]string{"circuitbreaker.go": src}))
	require.Equal(t, checker.Fail, res.Status, describe(res))
	f := res.FirstFailure().Failure
	require.NotNil(t, f)
	assert.LessOrEqual(t, len(f.Got.Obs), harness.MaxValue+len("…"))
}

// Compile-time bombs end as the learner's error within the build's
// limits, never as kurs's own failure.
func TestCompileBombsAreTheLearnersError(t *testing.T) {
	if testing.Short() {
		t.Skip("builds until a limit")
	}
	ex := exercise(t, "circuitbreaker")
	var doubling strings.Builder
	doubling.WriteString("const s0 = \"xxxxxxxxxxxxxxxx\"\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&doubling, "const s%d = s%d + s%d\n", i, i-1, i-1)
	}
	doubling.WriteString("var Bomb = len(s30)\n")
	// The Builder of a cache of its own (see privateBuilder), rather
	// than KURS_CACHE: the test then runs in parallel with those that
	// wait out a time limit, while the bombs keep the processors busy,
	// and what its checks keep lands in that folder alone.
	b := privateBuilder(t)
	cache := b.Dir()
	t.Parallel()
	ck := &checker.Checker{Build: b}
	// What a correct check leaves: its program's objects.
	_, err := ck.Check(context.Background(), ex, folder(t, map[string]string{"circuitbreaker.go": breaker}))
	require.NoError(t, err)
	correct := dirSize(t, cache)
	for name, bomb := range map[string]string{
		"doubling constants": doubling.String(),
		"huge array":         "var Bomb = [1 << 28]byte{1<<28 - 1: 1}\n",
	} {
		t.Run(name, func(t *testing.T) {
			res, err := ck.Check(context.Background(), ex, folder(t, map[string]string{
				"circuitbreaker.go": breaker,
				"bomb.go":           "package circuitbreaker\n\n" + bomb,
			}))
			require.NoError(t, err)
			require.Equal(t, checker.Error, res.Status, describe(res))
			assert.Equal(t, checker.ProblemBuildLimit, res.Problem.Kind, describe(res))
			// Everything the Builder keeps of a check (objects,
			// results); the shared go build cache, kits and judges
			// are links, not walked: the learner's programs are built
			// directly from the kit, without the go command.
			assert.Less(t, dirSize(t, cache)-correct, int64(64<<20), "what the bomb left in the cache")
			assert.Zero(t, b.Stats().GoBuilds, "a build with the go command, whose cache is not measured")
		})
	}
}

// dirSize is the total size of the files under dir.
func dirSize(t testing.TB, dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// While the learner's program hangs, the process that executes it is
// under seccomp and no_new_privs: the kernel, not the language, is the
// boundary. (The program waits rather than spins: what is confined does
// not depend on it, and a spinning one would keep the cores busy for the
// whole time limit.)
func TestLearnerProgramIsConfined(t *testing.T) {
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skip("kernel confinement is built for Linux on amd64 and arm64")
	}
	// It waits out a time limit and uses no processor meanwhile: in
	// parallel with the other tests that do.
	t.Parallel()
	ex := exercise(t, "circuitbreaker")
	dir := folder(t, map[string]string{"circuitbreaker.go": blocked(t)})
	tmp := t.TempDir()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = (&checker.Checker{Build: testBuild, Timeout: hangTimeout, TempDir: tmp}).Check(context.Background(), ex, dir)
	}()
	var status string
	for status == "" {
		select {
		case <-done:
			t.Fatal("the check ended before the learner's program was seen")
		case <-time.After(20 * time.Millisecond):
		}
		for _, p := range processesUnder(t, tmp) {
			pid, cmd, _ := strings.Cut(p, ": ")
			if !strings.Contains(cmd, "kurs-learner circuitbreaker serve") || strings.Contains(cmd, "kurs-sandbox-launcher") {
				continue
			}
			data, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
			if err == nil && strings.Contains(string(data), "Seccomp:\t2") {
				status = string(data)
			}
		}
	}
	<-done
	assert.Contains(t, status, "Seccomp:\t2")
	assert.Contains(t, status, "NoNewPrivs:\t1")
}

// A folder of thousands of files is refused after reading one more than
// allowed.
func TestManyFilesAreRefused(t *testing.T) {
	ex := exercise(t, "circuitbreaker")
	files := map[string]string{"circuitbreaker.go": breaker}
	for i := range 5000 {
		files[fmt.Sprintf("f%04d.go", i)] = "package circuitbreaker\n"
	}
	res := check(t, &checker.Checker{Build: testBuild, Timeout: corpusTimeout}, ex, folder(t, files))
	require.Equal(t, checker.Error, res.Status, describe(res))
	assert.Equal(t, checker.ProblemTooMany, res.Problem.Kind)
}

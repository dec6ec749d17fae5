package checker_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
)

// A learner's program that closes its pipes and dies only later, as a
// program on a busy machine may take long to die, still has its last words
// reported: once the judge has lost it, the checker waits for its exit
// rather than for a fixed moment.
func TestSlowDeathKeepsLastWords(t *testing.T) {
	ex := *exercise(t, "circuitbreaker")
	// Closing the pipes takes packages no learner may import.
	ex.Imports = append(slices.Clone(ex.Imports), "os", "syscall", "time")
	src := edit(t, breaker, "package circuitbreaker\n", `package circuitbreaker

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func init() {
	for _, fd := range strings.Split(os.Getenv("KURS_PIPES"), ",") {
		if n, err := strconv.Atoi(fd); err == nil {
			syscall.Close(n)
		}
	}
	time.Sleep(time.Second)
	panic("slow last words")
}
`)
	res := check(t, &checker.Checker{Build: testBuild, Timeout: corpusTimeout}, &ex, folder(t, map[string]string{"circuitbreaker.go": src}))
	require.Equal(t, checker.Error, res.Status, describe(res))
	require.NotNil(t, res.Problem)
	assert.Equal(t, checker.ProblemCrash, res.Problem.Kind, describe(res))
	assert.Contains(t, res.Problem.Detail, "slow last words")
	assert.False(t, res.Killed)
}

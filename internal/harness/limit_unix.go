//go:build unix && !kurs_learner

package harness

import (
	"os"
	"strconv"
	"syscall"
)

// limitSelf bounds the judge's own data segment by KURS_MEMORY and turns
// off core dumps. The judge is kurs's own code and starts without the
// launcher; what the learner's program sends it is bounded line by line,
// and this bounds the rest.
func limitSelf() {
	if n, err := strconv.ParseUint(os.Getenv("KURS_MEMORY"), 10, 64); err == nil && n > 0 {
		_ = syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: n, Max: n})
	}
	_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
}

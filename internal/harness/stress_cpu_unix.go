//go:build unix

package harness

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time this process has used, in user and
// kernel mode.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

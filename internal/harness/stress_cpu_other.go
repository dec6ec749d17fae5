//go:build !unix

package harness

import "time"

var cpuStart = time.Now()

// cpuTime stands in for the processor time with the wall clock where
// there is no getrusage: the stress then ends by its wall-clock bound.
func cpuTime() time.Duration { return time.Since(cpuStart) }

//go:build !linux

package harness

import "runtime"

// Yield gives the processor to another goroutine (on Linux, to another
// thread; see there).
func Yield() { runtime.Gosched() }

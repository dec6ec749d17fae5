//go:build linux || darwin || freebsd

package checker

import (
	"errors"
	"os/exec"
	"strings"
	"syscall"
)

// buildLimited reports whether the go command's output says that a
// compiler or linker ran into the build's memory or file size limit.
func buildLimited(out string) bool {
	return strings.Contains(out, "fatal error: runtime: out of memory") || strings.Contains(out, "fatal error: out of memory") || strings.Contains(out, "signal: killed") ||
		strings.Contains(out, "file too large") || strings.Contains(out, "signal: file size limit exceeded")
}

// killedByLimit reports whether the test program was killed by a resource
// limit (SIGXCPU, or SIGKILL from the kernel at the hard CPU limit).
func killedByLimit(err error) bool {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return false
	}
	ws, ok := exit.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (ws.Signal() == syscall.SIGXCPU || ws.Signal() == syscall.SIGKILL)
}

//go:build linux || darwin || freebsd

package checker

import (
	"errors"
	"os/exec"
	"syscall"
)

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

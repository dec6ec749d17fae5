//go:build linux || darwin || freebsd

package checker

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// isolate puts the test program into its own process group, so that it and
// everything it starts can be killed together.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// killGroup kills whatever is left of the test program's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// channel is the pipe on which the test program reports results, passed as
// file descriptor 3.
type channel struct {
	r, w *os.File
}

func openChannel(cmd *exec.Cmd, _ string) (*channel, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{w}
	return &channel{r: r, w: w}, nil
}

// started closes the parent's copy of the write end, so the reader sees
// EOF once the test program is gone.
func (c *channel) started() { c.w.Close() }

func (c *channel) finished() {}

func (c *channel) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *channel) Close() error {
	c.w.Close()
	return c.r.Close()
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

//go:build !(linux || darwin || freebsd)

package checker

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// isolate relies on killing the process alone here: there are no process
// groups to kill at once (see docs/security.md).
func isolate(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// channel is a file that the test program appends results to; it is read
// once the program has ended, since extra descriptors are not portable.
type channel struct {
	name string
	r    io.Reader
	done chan struct{}
}

func openChannel(cmd *exec.Cmd, tmp string) (*channel, error) {
	name := filepath.Join(tmp, "results")
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		return nil, err
	}
	cmd.Env = append(cmd.Env, "KURS_RESULTS="+name)
	return &channel{name: name, done: make(chan struct{})}, nil
}

func (c *channel) started() {}

func (c *channel) finished() { close(c.done) }

func (c *channel) Read(p []byte) (int, error) {
	if c.r == nil {
		<-c.done
		data, err := os.ReadFile(c.name)
		if err != nil {
			return 0, err
		}
		c.r = bytes.NewReader(data)
	}
	return c.r.Read(p)
}

func (c *channel) Close() error { return nil }

// killedByLimit reports false: there are no resource limits here.
func killedByLimit(error) bool { return false }

//go:build linux || darwin

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/kurs-course/kurs/internal/sandbox/launch"
)

// init makes every binary that links this package a launcher: in a process
// that Command started with no launcher of its own, it applies the policy
// and executes the program, and never returns.
func init() {
	if len(os.Args) < 2 || os.Args[0] != marker {
		return
	}
	launch.Main(os.Args[1:])
}

// launchers: Command starts programs through a launcher here.
const launchers = true

// launcher returns the launcher program that p names, or this one.
func launcher(p Policy) string {
	if p.Launcher != "" {
		return p.Launcher
	}
	return self()
}

// planSession is a launcher that runs the plans written to its standard
// input, one after another, and answers each on its standard output.
type planSession struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *json.Decoder
	stderr bytes.Buffer // read only once cmd has been waited for
	closed bool
}

// startPlans starts a launcher for plans under p, which does not confine.
func startPlans(ctx context.Context, p Policy) (*planSession, error) {
	enc, err := json.Marshal(spec(p, Status{}, "", true))
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, launcher(p))
	cmd.Args = []string{marker, string(enc)}
	cmd.SysProcAttr = sysProcAttr(p, Status{})
	cmd.Cancel = func() error { return kill(cmd) }
	cmd.WaitDelay = time.Second
	s := &planSession{cmd: cmd}
	cmd.Stderr = &s.stderr
	if s.in, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	s.out = json.NewDecoder(out)
	return s, nil
}

// run has the launcher run plan and returns what it did.
func (s *planSession) run(ctx context.Context, plan Plan) ([][]Done, error) {
	if err := json.NewEncoder(s.in).Encode(plan); err != nil {
		return nil, s.fail(ctx, err)
	}
	var done [][]Done
	if err := s.out.Decode(&done); err != nil {
		return nil, s.fail(ctx, err)
	}
	return done, nil
}

// fail ends the launcher and says why a plan got no answer: ctx ended,
// or the launcher's own words.
func (s *planSession) fail(ctx context.Context, err error) error {
	s.close()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("plan: %w: %s", err, bytes.TrimSpace(s.stderr.Bytes()))
}

// close ends the launcher and whatever its programs left behind, and
// waits for it.
func (s *planSession) close() {
	if s.closed {
		return
	}
	s.closed = true
	s.in.Close()
	Kill(s.cmd)
	_ = s.cmd.Wait()
	// Its programs died with it, its process group killed, but one may
	// still be ending (a linker frees much memory): a build that returns,
	// even interrupted, leaves nothing running.
	waitGone(s.cmd.Process.Pid)
}

// waitGone waits, for at most five seconds, until no process of the
// process group pgid runs: ended ones not yet reaped do not count.
func waitGone(pgid int) {
	deadline := time.Now().Add(5 * time.Second)
	for wait := 100 * time.Microsecond; syscall.Kill(-pgid, 0) == nil && groupRuns(pgid); wait = min(2*wait, 20*time.Millisecond) {
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(wait)
	}
}

// spec returns what the launcher receives for p with the layers in st:
// the limits, and for a confined program the filters, the limits that hold
// here and the ids it runs as.
func spec(p Policy, st Status, path string, plan bool) launch.Spec {
	sp := launch.Spec{Confine: p.Confine, Memory: p.Memory, CPU: p.CPU, FileSize: p.FileSize,
		Files: p.Files, Path: path, PlanOnStdin: plan}
	if p.Confine {
		confine(&sp, p, st)
	}
	return sp
}

// command builds the launcher's command for the layers in st.
func command(ctx context.Context, p Policy, st Status, name string, args []string) *exec.Cmd {
	path, lookErr := name, error(nil)
	if !strings.Contains(name, "/") {
		path, lookErr = exec.LookPath(name)
	}
	enc, err := json.Marshal(spec(p, st, path, false))
	if err != nil {
		panic(err) // a spec always encodes
	}
	cmd := exec.CommandContext(ctx, launcher(p))
	cmd.Args = append([]string{marker, string(enc), name}, args...)
	if lookErr != nil {
		cmd.Err = lookErr
	}
	cmd.SysProcAttr = sysProcAttr(p, st)
	cmd.Cancel = func() error { return kill(cmd) }
	cmd.WaitDelay = time.Second
	return cmd
}

// kill ends the process group, then the process (which, first in its pid
// namespace, takes the namespace with it).
func kill(cmd *exec.Cmd) error {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return cmd.Process.Kill()
}

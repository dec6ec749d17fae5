//go:build linux || darwin

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// runPlan starts a launcher that runs the plan, and reads what it did.
func runPlan(ctx context.Context, p Policy, plan Plan) ([][]Done, error) {
	enc, err := json.Marshal(spec(p, Status{}, "", true))
	if err != nil {
		return nil, err
	}
	input, err := json.Marshal(plan)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, launcher(p))
	cmd.Args = []string{marker, string(enc)}
	cmd.Stdin = bytes.NewReader(input)
	cmd.SysProcAttr = sysProcAttr(p, Status{})
	cmd.Cancel = func() error { return kill(cmd) }
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	Kill(cmd)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("plan: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	var done [][]Done
	if err := json.Unmarshal(out, &done); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	return done, nil
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

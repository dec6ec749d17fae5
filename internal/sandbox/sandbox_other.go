//go:build !linux && !darwin

package sandbox

import (
	"context"
	"os/exec"
	"syscall"
	"time"

	"github.com/kurs-course/kurs/internal/sandbox/launch"
)

// layers reports that a child is a plain process here: no launcher, no
// resource limits, no process group. Only Kill and the context's
// cancellation bound it, and they end the process alone, not what it
// started.
func layers() Status {
	return Status{Note: "plain process: no resource limits or process group on this system"}
}

// launchers: Command starts programs without a launcher here.
const launchers = false

// command starts the program directly.
func command(ctx context.Context, _ Policy, _ Status, name string, args []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = time.Second
	return cmd
}

func kill(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// sysProcAttr starts a plain process.
func sysProcAttr(Policy, Status) *syscall.SysProcAttr { return nil }

// planSession runs plans in this process: there is no launcher and
// there are no limits on this system.
type planSession struct{}

func startPlans(context.Context, Policy) (*planSession, error) { return &planSession{}, nil }

func (*planSession) run(ctx context.Context, plan Plan) ([][]Done, error) {
	done := launch.RunStages(ctx, plan, func() *exec.Cmd { return exec.CommandContext(ctx, "") })
	return done, ctx.Err()
}

func (*planSession) close() {}

//go:build linux || darwin

package sandbox

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func sh(t *testing.T, script string) Step {
	t.Helper()
	path, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	return Step{Path: path, Args: []string{"-c", script}}
}

// A plan runs stage by stage, stops after a stage that fails, and its
// programs inherit the launcher's limits.
func TestPlanStagesAndLimits(t *testing.T) {
	plan := Plan{Dir: t.TempDir(), Env: []string{"A=1"}, Stages: [][]Step{
		{sh(t, "echo $A$B"), sh(t, "ulimit -f")},
		{sh(t, "echo half; exit 3"), sh(t, "echo fine")},
		{sh(t, "echo never")},
	}}
	plan.Stages[0][0].Env = []string{"B=2"}
	done, err := RunPlan(context.Background(), Policy{FileSize: 1 << 20}, plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 2 {
		t.Fatalf("ran %d stages, want 2 (the third follows a failure)", len(done))
	}
	if got := string(done[0][0].Output); got != "12\n" || !done[0][0].OK {
		t.Errorf("first program: %q, ok %v", got, done[0][0].OK)
	}
	// ulimit -f counts 512-byte blocks.
	if got := strings.TrimSpace(string(done[0][1].Output)); got != "2048" {
		t.Errorf("RLIMIT_FSIZE seen by a program of the plan: %s blocks, want 2048", got)
	}
	if d := done[1][0]; d.OK || d.Status != "exit status 3" || string(d.Output) != "half\n" {
		t.Errorf("failing program: %+v", d)
	}
	if !done[1][1].OK {
		t.Errorf("the other program of the failing stage: %+v", done[1][1])
	}
}

func TestPlanEndsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := RunPlan(ctx, Policy{}, Plan{Stages: [][]Step{{sh(t, "sleep 30")}}})
	if err == nil {
		t.Fatal("a cancelled plan reports no error")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the plan ran on for %s after its context ended", d)
	}
}

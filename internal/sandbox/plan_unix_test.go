//go:build linux || darwin

package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kurs-course/kurs/internal/browsertest"
)

// tiny is the launcher program the tests start, built by TestMain where
// there is one; "" is the test binary itself.
var tiny string

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
	done, err := RunPlan(context.Background(), Policy{Launcher: tiny, FileSize: 1 << 20}, plan)
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

// Cancelling a plan ends its programs and what they started.
func TestPlanEndsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan error, 1)
	go func() {
		_, err := RunPlan(ctx, Policy{Launcher: tiny}, Plan{Dir: dir, Stages: [][]Step{{sh(t, "sleep 60 & echo $! > child.tmp; mv child.tmp child; wait")}}})
		ended <- err
	}()
	var data []byte
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		var err error
		if data, err = os.ReadFile(filepath.Join(dir, "child")); err == nil {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatal("the plan's program never started")
		}
	}
	cancel()
	if err := <-ended; err == nil {
		t.Fatal("a cancelled plan reports no error")
	}
	child, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// Where /proc tells, nothing the plan started runs once it returned
	// (one ended and not yet reaped does not run); elsewhere the child
	// has a while to go.
	if _, _, known := procStat(strconv.Itoa(child)); known && runs(child) {
		_ = syscall.Kill(child, syscall.SIGKILL)
		t.Fatalf("a program the plan started (%d) still ran when the plan returned", child)
	}
	endsSoon(t, child, "a program the plan started")
}

// runs reports whether process pid runs: it exists, and where /proc
// tells, it has not ended. An orphan that ended stays until init reaps
// it, which takes seconds on some machines.
func runs(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	state, _, known := procStat(strconv.Itoa(pid))
	return !known || !ended(state)
}

// endsSoon fails the test when process pid, a program named what,
// still runs after a while that grows with the machine's load; it kills
// the process then.
func endsSoon(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(browsertest.Scale(5 * time.Second))
	for runs(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s (%d) outlived it", what, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Parallel bounds the programs of a stage that run at once: with one at a
// time, two that take the same lock never meet; with two, two that wait
// for each other both get through.
func TestPlanParallel(t *testing.T) {
	lock := sh(t, "mkdir lock || exit 1; sleep 0.2; rmdir lock")
	done, err := RunPlan(context.Background(), Policy{Launcher: tiny}, Plan{Dir: t.TempDir(), Parallel: 1, Stages: [][]Step{{lock, lock}}})
	if err != nil {
		t.Fatal(err)
	}
	if !done[0][0].OK || !done[0][1].OK {
		t.Errorf("one at a time, and still they met: %+v", done[0])
	}
	meet := sh(t, "touch $$.up; i=0; while [ $(ls | grep -c '[.]up$') -lt 2 ]; do sleep 0.05; i=$((i+1)); [ $i -gt 600 ] && exit 1; done; exit 0")
	done, err = RunPlan(context.Background(), Policy{Launcher: tiny}, Plan{Dir: t.TempDir(), Parallel: 2, Stages: [][]Step{{meet, meet}}})
	if err != nil {
		t.Fatal(err)
	}
	if !done[0][0].OK || !done[0][1].OK {
		t.Errorf("two at a time, and they never ran together: %+v", done[0])
	}
}

// A plan longer than the kernel allows one argument to be still runs.
func TestLongPlan(t *testing.T) {
	var env []string
	for i := range 4000 {
		env = append(env, "KURS_TEST_"+strconv.Itoa(i)+"="+strings.Repeat("v", 40))
	}
	done, err := RunPlan(context.Background(), Policy{Launcher: tiny}, Plan{Dir: t.TempDir(), Env: env, Stages: [][]Step{{sh(t, "echo $KURS_TEST_3999")}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(done[0][0].Output)); got != strings.Repeat("v", 40) {
		t.Errorf("output %q", got)
	}
}

// Plans run one after another in one launcher, each written once the
// last one's answer is in: their programs share a parent, the launcher,
// which keeps its limits, and which Close ends.
func TestPlansShareOneLauncher(t *testing.T) {
	dir := t.TempDir()
	ps := StartPlans(context.Background(), Policy{Launcher: tiny, FileSize: 1 << 20})
	defer ps.Close()
	first, err := ps.Run(Plan{Dir: dir, Stages: [][]Step{{sh(t, "echo $PPID; echo made > first")}}})
	if err != nil {
		t.Fatal(err)
	}
	second, err := ps.Run(Plan{Dir: dir, Stages: [][]Step{{sh(t, "echo $PPID; cat first; ulimit -f")}}})
	if err != nil {
		t.Fatal(err)
	}
	if !first[0][0].OK || !second[0][0].OK {
		t.Fatalf("plans failed: %+v, %+v", first, second)
	}
	a := strings.Fields(string(first[0][0].Output))
	b := strings.Fields(string(second[0][0].Output))
	if len(a) != 1 || len(b) != 3 {
		t.Fatalf("outputs %q and %q", a, b)
	}
	if a[0] != b[0] {
		t.Errorf("the plans' programs have the parents %s and %s, want one launcher", a[0], b[0])
	}
	if b[1] != "made" || b[2] != "2048" {
		t.Errorf("the second plan saw %q and RLIMIT_FSIZE %s blocks, want made and 2048", b[1], b[2])
	}
	launcher, err := strconv.Atoi(a[0])
	if err != nil {
		t.Fatal(err)
	}
	if launcher == os.Getpid() {
		t.Fatal("the programs ran in the test, not in a launcher")
	}
	ps.Close()
	if syscall.Kill(launcher, 0) == nil {
		t.Errorf("the launcher (%d) outlived Close", launcher)
	}
	if _, err := ps.Run(Plan{Dir: dir, Stages: [][]Step{{sh(t, "true")}}}); err == nil {
		t.Error("a plan ran after Close")
	}
}

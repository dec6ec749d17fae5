//go:build unix && !kurs_learner

package harness

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// The judge starts without the launcher and bounds its own memory.
func TestJudgeLimitsItself(t *testing.T) {
	if os.Getenv("KURS_TEST_LIMIT_SELF") == "1" {
		limitSelf()
		var data, core syscall.Rlimit
		_ = syscall.Getrlimit(syscall.RLIMIT_DATA, &data)
		_ = syscall.Getrlimit(syscall.RLIMIT_CORE, &core)
		fmt.Printf("data=%d core=%d\n", data.Max, core.Max)
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestJudgeLimitsItself$")
	cmd.Env = append(os.Environ(), "KURS_TEST_LIMIT_SELF=1", "KURS_MEMORY=268435456")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "data=268435456 core=0") {
		t.Errorf("limits after limitSelf: %s", out)
	}
}

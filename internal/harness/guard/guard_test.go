//go:build linux

package guard

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// The test binary links guard, so its init has already run here.

func TestExecIsRefused(t *testing.T) {
	err := exec.Command("/bin/true").Run()
	if !errors.Is(err, syscall.EPERM) {
		t.Fatalf("exec after guard: %v, want EPERM", err)
	}
	err = syscall.Exec("/bin/true", []string{"true"}, nil)
	if !errors.Is(err, syscall.EPERM) {
		t.Fatalf("syscall.Exec after guard: %v, want EPERM", err)
	}
}

func TestEveryThreadIsFiltered(t *testing.T) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	for _, task := range tasks {
		status, err := os.ReadFile("/proc/self/task/" + task.Name() + "/status")
		if err != nil {
			continue // the thread ended meanwhile
		}
		for _, want := range []string{"Seccomp:\t2", "NoNewPrivs:\t1"} {
			if !strings.Contains(string(status), want+"\n") {
				t.Errorf("thread %s: no %q in its status", task.Name(), want)
			}
		}
	}
}

package sandbox

import (
	"os"
	"syscall"

	"github.com/kurs-course/kurs/internal/sandbox/launch"
)

// groupRuns reports whether a process of the process group pgid may run:
// without /proc, every process left counts (see waitGone).
func groupRuns(int) bool { return true }

// procStat reports no process: there is no /proc to tell.
func procStat(string) (state string, pgrp int, ok bool) { return "", 0, false }

// ended reports whether a process in state has ended.
func ended(string) bool { return false }

// self is the launcher's executable.
func self() string {
	exe, _ := os.Executable()
	return exe
}

// sysProcAttr starts the launcher in its own process group.
func sysProcAttr(Policy, Status) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// layers reports what macOS gives: the launcher's resource limits (the
// kernel does not enforce RLIMIT_DATA) and a process group.
func layers() Status {
	return Status{ProcessGroup: true, Rlimits: true, Note: "no kernel confinement on macOS"}
}

// confine sets no more than the policy's limits: macOS has no kernel
// confinement, and RLIMIT_NPROC counts every process of the user.
func confine(*launch.Spec, Policy, Status) {}

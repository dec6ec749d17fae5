package sandbox

import (
	"os"
	"syscall"
)

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
func confine(*spec, Status) {}

// execute executes the program; there is nothing to confine it with.
func execute(sp *spec, argv, env []string) error {
	return syscall.Exec(sp.Path, argv, env)
}

// planChildAttr starts a program of a plan in its launcher's process
// group, which Kill ends.
func planChildAttr() *syscall.SysProcAttr { return nil }

package launch

import "syscall"

// rlimitNPROC is RLIMIT_NPROC on macOS.
const rlimitNPROC = 7

// execute executes the program; there is nothing to confine it with.
func execute(sp *Spec, argv, env []string) error {
	return syscall.Exec(sp.Path, argv, env)
}

// planChildAttr starts a program of a plan in its launcher's process
// group, which package sandbox's Kill ends.
func planChildAttr() *syscall.SysProcAttr { return nil }

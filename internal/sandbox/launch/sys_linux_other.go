//go:build linux && !amd64 && !arm64

package launch

// Elsewhere there is no seccomp filter (arch returns nil), so these
// numbers are never used; without execveat, a confined program is
// executed by its path in /proc/self/fd.
const (
	sysGetcpu        = noSyscall
	sysSeccomp       = noSyscall
	sysGetrandom     = noSyscall
	sysExecveat      = noSyscall
	sysCopyFileRange = noSyscall
)

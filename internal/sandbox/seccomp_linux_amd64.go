package sandbox

import "golang.org/x/sys/unix"

var amd64Filter = &archFilter{
	audit: unix.AUDIT_ARCH_X86_64,
	x32:   true,
	allowed: []uintptr{
		unix.SYS_EPOLL_WAIT, unix.SYS_EPOLL_CREATE, unix.SYS_PIPE, unix.SYS_DUP2,
		unix.SYS_POLL, unix.SYS_SELECT, unix.SYS_TIME, unix.SYS_ALARM, unix.SYS_PAUSE,
	},
	special: []special{
		// The Go runtime sets each thread's TLS base this way.
		{unix.SYS_ARCH_PRCTL, oneOf(0, archSetFS, archGetFS)},
	},
}

// arch_prctl codes (asm/prctl.h).
const (
	archSetFS = 0x1002
	archGetFS = 0x1003
)

func arch() *archFilter { return amd64Filter }

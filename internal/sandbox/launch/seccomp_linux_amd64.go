package launch

import "syscall"

var amd64Filter = &archFilter{
	audit: auditArchX86_64,
	x32:   true,
	allowed: []uintptr{
		syscall.SYS_EPOLL_WAIT, syscall.SYS_EPOLL_CREATE, syscall.SYS_PIPE, syscall.SYS_DUP2,
		syscall.SYS_POLL, syscall.SYS_SELECT, syscall.SYS_TIME, syscall.SYS_ALARM, syscall.SYS_PAUSE,
	},
	special: []special{
		// The Go runtime sets each thread's TLS base this way.
		{syscall.SYS_ARCH_PRCTL, oneOf(0, archSetFS, archGetFS)},
	},
}

// arch_prctl codes (asm/prctl.h).
const (
	archSetFS = 0x1002
	archGetFS = 0x1003
)

func arch() *archFilter { return amd64Filter }

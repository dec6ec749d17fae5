//go:build linux

package guard

import (
	"errors"
	"runtime"
	"syscall"
	"unsafe"
)

// The numbers the syscall package lacks on some architectures, per GOARCH.
type arch struct {
	audit    uint32 // AUDIT_ARCH_* as seccomp reports it
	execve   uint32
	execveat uint32
	seccomp  uintptr
	x32      bool // amd64: syscalls with bit 30 set use the x32 ABI
}

var arches = map[string]arch{
	"amd64":   {0xc000003e, 59, 322, 317, true},
	"arm64":   {0xc00000b7, 221, 281, 277, false},
	"riscv64": {0xc00000f3, 221, 281, 277, false},
	"386":     {0x40000003, 11, 358, 354, false},
	"arm":     {0x40000028, 11, 387, 383, false},
}

// Classic BPF as seccomp reads it (linux/filter.h).
type sockFilter struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

type sockFprog struct {
	len    uint16
	filter *sockFilter
}

const (
	bpfLdAbsW = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJeq    = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJge    = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	bpfRet    = 0x06 // BPF_RET | BPF_K

	retKillProcess = 0x80000000
	retErrno       = 0x00050000
	retAllow       = 0x7fff0000

	prSetNoNewPrivs       = 38
	seccompSetModeFilter  = 1
	seccompFilterFlagSync = 1 // SECCOMP_FILTER_FLAG_TSYNC
)

// forbidExec adds a seccomp filter to every thread of the process that
// refuses execve and execveat with EPERM, and kills the process on a
// syscall of a foreign ABI (int 0x80 on amd64), through which the same
// calls would have other numbers. Filters only ever add restrictions, so
// this narrows whatever the launcher's filter allows.
func forbidExec() error {
	a, ok := arches[runtime.GOARCH]
	if !ok {
		return errors.New("guard: no seccomp numbers for " + runtime.GOARCH)
	}
	deny := uint8(3) // from the x32 check: jump over three instructions
	prog := []sockFilter{
		{bpfLdAbsW, 0, 0, 4}, // seccomp_data.arch
		{bpfJeq, 1, 0, a.audit},
		{bpfRet, 0, 0, retKillProcess},
		{bpfLdAbsW, 0, 0, 0}, // seccomp_data.nr
	}
	if a.x32 {
		prog = append(prog, sockFilter{bpfJge, deny, 0, 0x40000000})
	}
	prog = append(prog,
		sockFilter{bpfJeq, 2, 0, a.execve},
		sockFilter{bpfJeq, 1, 0, a.execveat},
		sockFilter{bpfRet, 0, 0, retAllow},
		sockFilter{bpfRet, 0, 0, retErrno | uint32(syscall.EPERM)},
	)
	fprog := sockFprog{len: uint16(len(prog)), filter: &prog[0]}

	// no_new_privs belongs to a thread; TSYNC copies it, with the filter,
	// from this thread to all the others.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// Under the launcher the bit is already set and prctl may be refused;
	// seccomp below says whether the filter holds.
	syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0)
	r, _, e := syscall.RawSyscall(a.seccomp, seccompSetModeFilter, seccompFilterFlagSync, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return e
	}
	if r != 0 {
		return errors.New("guard: a thread could not take the filter")
	}
	return nil
}

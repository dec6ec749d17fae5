package launch

import (
	"fmt"

	"syscall"
)

// The seccomp filter is an allowlist: every syscall not named here fails
// with EPERM. That refuses, among others, every path-taking syscall (open,
// openat, openat2, creat, stat, unlink, rename, mkdir, chmod, link,
// symlink, truncate, ...), fork, vfork and execve, sockets of any kind,
// ptrace and process_vm_readv/writev, setsid and setpgid, setrlimit,
// mount, unshare, setns, bpf, keyctl, io_uring, userfaultfd,
// perf_event_open, memfd_create and ioctl. clone3 fails with ENOSYS, the
// answer that makes a C library fall back to clone, which is checked.
//
// Syscalls are allowed with conditions on their arguments where the call
// is needed but its full power is not:
//
//   - clone: only a thread (CLONE_THREAD, CLONE_VM, CLONE_SIGHAND), never a
//     new namespace;
//   - kill, tgkill: only to the process itself (the Go runtime signals its
//     own threads to preempt goroutines);
//   - mmap, mprotect: never PROT_EXEC, so injected code cannot be made
//     executable; mmap never MAP_SHARED (nor MAP_SHARED_VALIDATE), whose
//     anonymous memory RLIMIT_DATA does not count, nor MAP_GROWSDOWN, a
//     stack that it does not count either. The Go runtime needs neither,
//     and mremap, which could grow a mapping past these checks, is
//     refused: the runtime never calls it;
//   - mprotect never PROT_WRITE either: the kernel skips its RLIMIT_DATA
//     check when the address space in use plus the change exceeds
//     RLIMIT_AS, so a mapping reserved without access and then made
//     writable would escape the data limit. The Go runtime reserves with
//     mmap and commits with mmap (counted), and calls mprotect only to
//     take access away. The race detector's build, linked with the C
//     library, is built so that it needs it neither (package
//     internal/harness/guard): allowed to any program, small or not, the
//     call would make RLIMIT_AS the only bound, since a program that
//     fills its address space with reservations escapes the data check
//     with every further mprotect, however small;
//   - prctl: only no_new_privs and naming memory (the runtime names its
//     mappings); seccomp: only adding a filter, which can only restrict;
//   - fcntl: only descriptor flags and dup; prlimit64: only reading;
//   - execveat: only the descriptor of the program the launcher opened
//     with O_CLOEXEC, with AT_EMPTY_PATH. That descriptor is closed by the
//     exec itself, and the program can open no file to take its number,
//     so the one exec the launcher needs is the only one there can be.
//
// A syscall of another ABI than the program's (int 0x80 or x32 on amd64,
// where the same numbers mean other calls) kills the process.

// seccomp_data offsets (linux/seccomp.h), little-endian words.
const (
	offNr   = 0
	offArch = 4
)

func offArg(i int) uint32 { return 16 + 8*uint32(i) }

const (
	ldAbs = syscall.BPF_LD | syscall.BPF_W | syscall.BPF_ABS
	jeq   = syscall.BPF_JMP | syscall.BPF_JEQ | syscall.BPF_K
	jge   = syscall.BPF_JMP | syscall.BPF_JGE | syscall.BPF_K
	jset  = syscall.BPF_JMP | syscall.BPF_JSET | syscall.BPF_K
	and   = syscall.BPF_ALU | syscall.BPF_AND | syscall.BPF_K
	ret   = syscall.BPF_RET | syscall.BPF_K
	ja    = syscall.BPF_JMP | syscall.BPF_JA

	x32SyscallBit = 0x40000000

	retAllow = seccompRetAllow
	retKill  = seccompRetKillProcess
	retEPERM = seccompRetErrno | uint32(syscall.EPERM)
	retNOSYS = seccompRetErrno | uint32(syscall.ENOSYS)
)

func stmt(code uint16, k uint32) syscall.SockFilter { return syscall.SockFilter{Code: code, K: k} }

func jump(code uint16, k uint32, jt, jf int) syscall.SockFilter {
	if jt > 255 || jf > 255 {
		panic("sandbox: seccomp jump too far")
	}
	return syscall.SockFilter{Code: code, K: k, Jt: uint8(jt), Jf: uint8(jf)}
}

// cond is one condition on the low 32 bits of an argument, which is all
// the kernel reads of an int, a pid or a flags argument. A pointer needs
// both words (hi).
type cond struct {
	arg int
	hi  bool
	val uint32
}

// all returns a block that allows the call if every condition holds and
// refuses it with EPERM otherwise.
func all(cs ...cond) []syscall.SockFilter {
	var b []syscall.SockFilter
	n := len(cs)
	for i, c := range cs {
		off := offArg(c.arg)
		if c.hi {
			off += 4
		}
		b = append(b, stmt(ldAbs, off))
		if i == n-1 {
			b = append(b, jump(jeq, c.val, 1, 0))
		} else {
			b = append(b, jump(jeq, c.val, 0, 2*n-2*i-2))
		}
	}
	return append(b, stmt(ret, retEPERM), stmt(ret, retAllow))
}

// oneOf returns a block that allows the call if argument arg is one of
// vals.
func oneOf(arg int, vals ...uint32) []syscall.SockFilter {
	b := []syscall.SockFilter{stmt(ldAbs, offArg(arg))}
	for i, v := range vals {
		b = append(b, jump(jeq, v, len(vals)-i, 0))
	}
	return append(b, stmt(ret, retEPERM), stmt(ret, retAllow))
}

// noneOf returns a block that allows the call if argument arg has none of
// the bits set.
func noneOf(arg int, bits uint32) []syscall.SockFilter {
	return []syscall.SockFilter{
		stmt(ldAbs, offArg(arg)),
		jump(jset, bits, 0, 1),
		stmt(ret, retEPERM),
		stmt(ret, retAllow),
	}
}

// bits is a set of bits in one argument.
type bits struct {
	arg  int
	mask uint32
}

// noBits returns a block that allows the call if no argument has any of
// its bits set.
func noBits(bs ...bits) []syscall.SockFilter {
	var b []syscall.SockFilter
	n := len(bs)
	for i, x := range bs {
		b = append(b, stmt(ldAbs, offArg(x.arg)))
		if i == n-1 {
			b = append(b, jump(jset, x.mask, 0, 1))
		} else {
			b = append(b, jump(jset, x.mask, 2*n-2*i-2, 0))
		}
	}
	return append(b, stmt(ret, retEPERM), stmt(ret, retAllow))
}

// masked returns a block that allows the call if argument arg, masked,
// equals want.
func masked(arg int, mask, want uint32) []syscall.SockFilter {
	return []syscall.SockFilter{
		stmt(ldAbs, offArg(arg)),
		stmt(and, mask),
		jump(jeq, want, 1, 0),
		stmt(ret, retEPERM),
		stmt(ret, retAllow),
	}
}

// Syscalls allowed without conditions on every architecture: reading and
// writing descriptors the program holds, memory, signals to itself,
// threads' synchronisation, time, and ending.
var allowedCommon = []uintptr{
	syscall.SYS_READ, syscall.SYS_WRITE, syscall.SYS_READV, syscall.SYS_WRITEV,
	syscall.SYS_PREAD64, syscall.SYS_PWRITE64, syscall.SYS_CLOSE, syscall.SYS_FSTAT,
	syscall.SYS_LSEEK, syscall.SYS_FSYNC, syscall.SYS_FDATASYNC,
	syscall.SYS_SENDFILE, syscall.SYS_SPLICE, sysCopyFileRange,
	syscall.SYS_DUP, syscall.SYS_DUP3, syscall.SYS_PIPE2, syscall.SYS_EVENTFD2,
	syscall.SYS_EPOLL_CREATE1, syscall.SYS_EPOLL_CTL, syscall.SYS_EPOLL_PWAIT, sysEpollPwait2,
	syscall.SYS_PPOLL, syscall.SYS_PSELECT6,
	syscall.SYS_MUNMAP, syscall.SYS_MADVISE, syscall.SYS_BRK, syscall.SYS_MINCORE,
	syscall.SYS_RT_SIGACTION, syscall.SYS_RT_SIGPROCMASK, syscall.SYS_RT_SIGRETURN,
	syscall.SYS_RT_SIGPENDING, syscall.SYS_RT_SIGSUSPEND, syscall.SYS_RT_SIGTIMEDWAIT, syscall.SYS_SIGALTSTACK,
	syscall.SYS_FUTEX, syscall.SYS_SCHED_YIELD, syscall.SYS_SCHED_GETAFFINITY,
	syscall.SYS_NANOSLEEP, syscall.SYS_CLOCK_NANOSLEEP, syscall.SYS_CLOCK_GETTIME, syscall.SYS_CLOCK_GETRES,
	syscall.SYS_GETTIMEOFDAY, syscall.SYS_TIMER_CREATE, syscall.SYS_TIMER_SETTIME, syscall.SYS_TIMER_GETTIME,
	syscall.SYS_TIMER_GETOVERRUN, syscall.SYS_TIMER_DELETE, syscall.SYS_SETITIMER, syscall.SYS_GETITIMER,
	syscall.SYS_GETPID, syscall.SYS_GETTID, syscall.SYS_GETPPID, syscall.SYS_GETUID, syscall.SYS_GETEUID,
	syscall.SYS_GETGID, syscall.SYS_GETEGID, syscall.SYS_GETRESUID, syscall.SYS_GETRESGID, syscall.SYS_GETGROUPS,
	syscall.SYS_GETRLIMIT, syscall.SYS_GETRUSAGE, syscall.SYS_TIMES, syscall.SYS_UNAME, sysGetrandom,
	sysGetcpu, syscall.SYS_RESTART_SYSCALL, syscall.SYS_SET_TID_ADDRESS,
	syscall.SYS_EXIT, syscall.SYS_EXIT_GROUP,
}

// Thread flags Go's runtime (and any C library) passes to clone for a
// thread; a namespace flag beside them is refused.
const (
	cloneThread = syscall.CLONE_VM | syscall.CLONE_SIGHAND | syscall.CLONE_THREAD
	cloneMask   = cloneThread | syscall.CLONE_NEWNS | syscall.CLONE_NEWCGROUP | syscall.CLONE_NEWUTS |
		syscall.CLONE_NEWIPC | syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET
)

// filter returns the seccomp program for a launcher with process id pid
// that executes the program open as descriptor execFD.
func filter(pid, execFD int) ([]syscall.SockFilter, error) {
	a := arch()
	if a == nil {
		return nil, fmt.Errorf("no seccomp filter for this architecture")
	}
	prog := []syscall.SockFilter{
		stmt(ldAbs, offArch),
		jump(jeq, a.audit, 1, 0),
		stmt(ret, retKill),
		stmt(ldAbs, offNr),
	}
	if a.x32 {
		prog = append(prog, jump(jge, x32SyscallBit, 0, 1), stmt(ret, retKill))
	}
	special := []special{
		{syscall.SYS_CLONE, masked(0, cloneMask, cloneThread)},
		{sysClone3, []syscall.SockFilter{stmt(ret, retNOSYS)}},
		{syscall.SYS_KILL, all(cond{arg: 0, val: uint32(pid)})},
		{syscall.SYS_TGKILL, all(cond{arg: 0, val: uint32(pid)})},
		{syscall.SYS_MMAP, noBits(bits{2, syscall.PROT_EXEC}, bits{3, syscall.MAP_SHARED | syscall.MAP_GROWSDOWN})},
		{syscall.SYS_MPROTECT, noneOf(2, syscall.PROT_EXEC|syscall.PROT_WRITE)},
		{syscall.SYS_PRCTL, oneOf(0, prSetNoNewPrivs, prGetNoNewPrivs, prSetVMA)},
		{sysSeccomp, oneOf(0, seccompSetModeFilter)},
		{syscall.SYS_FCNTL, oneOf(1, syscall.F_DUPFD, syscall.F_DUPFD_CLOEXEC, syscall.F_GETFD, syscall.F_SETFD, syscall.F_GETFL, syscall.F_SETFL)},
		{syscall.SYS_PRLIMIT64, all(cond{arg: 2, val: 0}, cond{arg: 2, hi: true, val: 0})},
		{sysExecveat, all(cond{arg: 0, val: uint32(execFD)}, cond{arg: 4, val: atEmptyPath})},
	}
	special = append(special, a.special...)
	plain := append(append([]uintptr(nil), allowedCommon...), a.allowed...)

	// Layout: the frequent plain checks first, jumping to an "allow" just
	// after them; then each special block, which starts with its own check
	// and ends in returns; then "refuse".
	for i, nr := range plain {
		prog = append(prog, jump(jeq, uint32(nr), len(plain)-i, 0))
	}
	prog = append(prog, stmt(ja, 1), stmt(ret, retAllow))
	for _, s := range special {
		prog = append(prog, jump(jeq, uint32(s.nr), 0, len(s.block)))
		prog = append(prog, s.block...)
	}
	prog = append(prog, stmt(ret, retEPERM))
	if len(prog) > syscall.BPF_MAXINSNS {
		return nil, fmt.Errorf("seccomp filter too long")
	}
	return prog, nil
}

// archFilter holds what differs between architectures.
type archFilter struct {
	audit   uint32
	x32     bool
	allowed []uintptr
	special []special
}

// special is a syscall allowed only under conditions that block checks.
type special struct {
	nr    uintptr
	block []syscall.SockFilter
}

// HasFilter reports whether there is a seccomp filter for this
// architecture; without one a confined program runs without seccomp.
func HasFilter() bool { return arch() != nil }

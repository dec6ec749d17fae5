package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
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
	ldAbs = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	jge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	jset  = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	and   = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	ret   = unix.BPF_RET | unix.BPF_K
	ja    = unix.BPF_JMP | unix.BPF_JA

	x32SyscallBit = 0x40000000

	retAllow = unix.SECCOMP_RET_ALLOW
	retKill  = unix.SECCOMP_RET_KILL_PROCESS
	retEPERM = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	retNOSYS = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
)

func stmt(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }

func jump(code uint16, k uint32, jt, jf int) unix.SockFilter {
	if jt > 255 || jf > 255 {
		panic("sandbox: seccomp jump too far")
	}
	return unix.SockFilter{Code: code, K: k, Jt: uint8(jt), Jf: uint8(jf)}
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
func all(cs ...cond) []unix.SockFilter {
	var b []unix.SockFilter
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
func oneOf(arg int, vals ...uint32) []unix.SockFilter {
	b := []unix.SockFilter{stmt(ldAbs, offArg(arg))}
	for i, v := range vals {
		b = append(b, jump(jeq, v, len(vals)-i, 0))
	}
	return append(b, stmt(ret, retEPERM), stmt(ret, retAllow))
}

// noneOf returns a block that allows the call if argument arg has none of
// the bits set.
func noneOf(arg int, bits uint32) []unix.SockFilter {
	return []unix.SockFilter{
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
func noBits(bs ...bits) []unix.SockFilter {
	var b []unix.SockFilter
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
func masked(arg int, mask, want uint32) []unix.SockFilter {
	return []unix.SockFilter{
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
	unix.SYS_READ, unix.SYS_WRITE, unix.SYS_READV, unix.SYS_WRITEV,
	unix.SYS_PREAD64, unix.SYS_PWRITE64, unix.SYS_CLOSE, unix.SYS_FSTAT,
	unix.SYS_LSEEK, unix.SYS_FSYNC, unix.SYS_FDATASYNC,
	unix.SYS_SENDFILE, unix.SYS_SPLICE, unix.SYS_COPY_FILE_RANGE,
	unix.SYS_DUP, unix.SYS_DUP3, unix.SYS_PIPE2, unix.SYS_EVENTFD2,
	unix.SYS_EPOLL_CREATE1, unix.SYS_EPOLL_CTL, unix.SYS_EPOLL_PWAIT, unix.SYS_EPOLL_PWAIT2,
	unix.SYS_PPOLL, unix.SYS_PSELECT6,
	unix.SYS_MUNMAP, unix.SYS_MADVISE, unix.SYS_BRK, unix.SYS_MINCORE,
	unix.SYS_RT_SIGACTION, unix.SYS_RT_SIGPROCMASK, unix.SYS_RT_SIGRETURN,
	unix.SYS_RT_SIGPENDING, unix.SYS_RT_SIGSUSPEND, unix.SYS_RT_SIGTIMEDWAIT, unix.SYS_SIGALTSTACK,
	unix.SYS_FUTEX, unix.SYS_SCHED_YIELD, unix.SYS_SCHED_GETAFFINITY,
	unix.SYS_NANOSLEEP, unix.SYS_CLOCK_NANOSLEEP, unix.SYS_CLOCK_GETTIME, unix.SYS_CLOCK_GETRES,
	unix.SYS_GETTIMEOFDAY, unix.SYS_TIMER_CREATE, unix.SYS_TIMER_SETTIME, unix.SYS_TIMER_GETTIME,
	unix.SYS_TIMER_GETOVERRUN, unix.SYS_TIMER_DELETE, unix.SYS_SETITIMER, unix.SYS_GETITIMER,
	unix.SYS_GETPID, unix.SYS_GETTID, unix.SYS_GETPPID, unix.SYS_GETUID, unix.SYS_GETEUID,
	unix.SYS_GETGID, unix.SYS_GETEGID, unix.SYS_GETRESUID, unix.SYS_GETRESGID, unix.SYS_GETGROUPS,
	unix.SYS_GETRLIMIT, unix.SYS_GETRUSAGE, unix.SYS_TIMES, unix.SYS_UNAME, unix.SYS_GETRANDOM,
	unix.SYS_GETCPU, unix.SYS_RESTART_SYSCALL, unix.SYS_SET_TID_ADDRESS,
	unix.SYS_EXIT, unix.SYS_EXIT_GROUP,
}

// Thread flags Go's runtime (and any C library) passes to clone for a
// thread; a namespace flag beside them is refused.
const (
	cloneThread = unix.CLONE_VM | unix.CLONE_SIGHAND | unix.CLONE_THREAD
	cloneMask   = cloneThread | unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS |
		unix.CLONE_NEWIPC | unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET
)

// filter returns the seccomp program for a launcher with process id pid
// that executes the program open as descriptor execFD.
func filter(pid, execFD int) ([]unix.SockFilter, error) {
	a := arch()
	if a == nil {
		return nil, fmt.Errorf("no seccomp filter for this architecture")
	}
	prog := []unix.SockFilter{
		stmt(ldAbs, offArch),
		jump(jeq, a.audit, 1, 0),
		stmt(ret, retKill),
		stmt(ldAbs, offNr),
	}
	if a.x32 {
		prog = append(prog, jump(jge, x32SyscallBit, 0, 1), stmt(ret, retKill))
	}
	special := []special{
		{unix.SYS_CLONE, masked(0, cloneMask, cloneThread)},
		{unix.SYS_CLONE3, []unix.SockFilter{stmt(ret, retNOSYS)}},
		{unix.SYS_KILL, all(cond{arg: 0, val: uint32(pid)})},
		{unix.SYS_TGKILL, all(cond{arg: 0, val: uint32(pid)})},
		{unix.SYS_MMAP, noBits(bits{2, unix.PROT_EXEC}, bits{3, unix.MAP_SHARED | unix.MAP_GROWSDOWN})},
		{unix.SYS_MPROTECT, noneOf(2, unix.PROT_EXEC)},
		{unix.SYS_PRCTL, oneOf(0, unix.PR_SET_NO_NEW_PRIVS, unix.PR_GET_NO_NEW_PRIVS, unix.PR_SET_VMA)},
		{unix.SYS_SECCOMP, oneOf(0, unix.SECCOMP_SET_MODE_FILTER)},
		{unix.SYS_FCNTL, oneOf(1, unix.F_DUPFD, unix.F_DUPFD_CLOEXEC, unix.F_GETFD, unix.F_SETFD, unix.F_GETFL, unix.F_SETFL)},
		{unix.SYS_PRLIMIT64, all(cond{arg: 2, val: 0}, cond{arg: 2, hi: true, val: 0})},
		{unix.SYS_EXECVEAT, all(cond{arg: 0, val: uint32(execFD)}, cond{arg: 4, val: unix.AT_EMPTY_PATH})},
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
	if len(prog) > unix.BPF_MAXINSNS {
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
	block []unix.SockFilter
}

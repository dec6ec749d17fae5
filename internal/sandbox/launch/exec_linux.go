package launch

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// execute executes the program: plainly, or after confining this thread.
func execute(sp *Spec, argv, env []string) error {
	if !sp.Confine {
		return syscall.Exec(sp.Path, argv, env)
	}
	// Everything the exec needs is prepared before the filter is in place.
	argvp, err := syscall.SlicePtrFromStrings(argv)
	if err != nil {
		return err
	}
	envp, err := syscall.SlicePtrFromStrings(env)
	if err != nil {
		return err
	}
	empty := []byte{0}
	fd, err := syscall.Open(sp.Path, oPATH|syscall.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open %s: %v", sp.Path, err)
	}
	if err := dropPrivileges(sp, fd); err != nil {
		return fmt.Errorf("drop privileges: %v", err)
	}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("no_new_privs: %v", e)
	}
	if sp.Landlock > 0 {
		if err := landlock(sp.Landlock, fd); err != nil {
			return fmt.Errorf("landlock: %v", err)
		}
	}
	if sp.Seccomp {
		prog, err := filter(os.Getpid(), fd)
		if err != nil {
			return err
		}
		fprog := syscall.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
		if _, _, e := syscall.RawSyscall(sysSeccomp, seccompSetModeFilter, 0, uintptr(unsafe.Pointer(&fprog))); e != 0 {
			return fmt.Errorf("seccomp: %v", e)
		}
		runtime.KeepAlive(prog)
	}
	if sysExecveat == noSyscall {
		return syscall.Exec(fmt.Sprintf("/proc/self/fd/%d", fd), argv, env)
	}
	for {
		_, _, e := syscall.RawSyscall6(sysExecveat, uintptr(fd), uintptr(unsafe.Pointer(&empty[0])),
			uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])), atEmptyPath, 0)
		if e != syscall.EINTR && e != syscall.EAGAIN {
			return fmt.Errorf("exec %s: %v", sp.Path, e)
		}
	}
}

// prctl makes a prctl call that takes no more than two arguments.
func prctl(option, arg2 uintptr) (uintptr, syscall.Errno) {
	r, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, option, arg2, 0)
	return r, e
}

// dropPrivileges leaves this thread, and so the program it executes,
// without privilege. As root (in the launcher's user namespace, or on the
// host without one) it empties the bounding set, drops the supplementary
// groups and takes sp.Uid and sp.Gid, which clears the effective and
// permitted sets; it sets the parent-death signal again, which the change
// of ids clears. Any launcher then empties its inheritable and ambient
// sets (a launcher that is not root lost the others when it was
// executed), and checks that no capability is left. It works on this
// thread alone, raw: the Go runtime's setuid changes every thread, and
// only this one executes the program.
func dropPrivileges(sp *Spec, fd int) error {
	switched := syscall.Geteuid() == 0 && sp.Uid > 0
	if switched {
		if err := executableBy(fd, sp.Uid, sp.Gid); err != nil {
			return err
		}
		var deathSig int32
		if _, e := prctl(syscall.PR_GET_PDEATHSIG, uintptr(unsafe.Pointer(&deathSig))); e != 0 {
			return fmt.Errorf("parent-death signal: %v", e)
		}
		for c := uintptr(0); c < 64; c++ {
			if _, e := prctl(syscall.PR_CAPBSET_DROP, c); e != 0 && e != syscall.EINVAL {
				return fmt.Errorf("bounding set: %v", e)
			}
		}
		if _, _, e := syscall.RawSyscall(syscall.SYS_SETGROUPS, 0, 0, 0); e != 0 {
			return fmt.Errorf("setgroups: %v", e)
		}
		if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESGID, uintptr(sp.Gid), uintptr(sp.Gid), uintptr(sp.Gid)); e != 0 {
			return fmt.Errorf("setresgid %d: %v", sp.Gid, e)
		}
		if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESUID, uintptr(sp.Uid), uintptr(sp.Uid), uintptr(sp.Uid)); e != 0 {
			return fmt.Errorf("setresuid %d: %v", sp.Uid, e)
		}
		if deathSig != 0 {
			if _, e := prctl(syscall.PR_SET_PDEATHSIG, uintptr(deathSig)); e != 0 {
				return fmt.Errorf("parent-death signal: %v", e)
			}
		}
	}
	// Kernels before 4.3 have no ambient set.
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prCapAmbient, prCapAmbientClearAll, 0, 0, 0, 0); e != 0 && e != syscall.EINVAL {
		return fmt.Errorf("ambient set: %v", e)
	}
	hdr := capHeader{version: linuxCapabilityVersion3}
	var caps [2]capData
	if _, _, e := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&caps[0])), 0); e != 0 {
		return fmt.Errorf("capset: %v", e)
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_CAPGET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&caps[0])), 0); e != 0 {
		return fmt.Errorf("capget: %v", e)
	}
	if caps != [2]capData{} {
		return fmt.Errorf("capabilities left: %+v", caps)
	}
	if !switched {
		return nil
	}
	var r, e, s uintptr
	syscall.RawSyscall(syscall.SYS_GETRESUID, uintptr(unsafe.Pointer(&r)), uintptr(unsafe.Pointer(&e)), uintptr(unsafe.Pointer(&s)))
	if uint32(r) != uint32(sp.Uid) || uint32(e) != uint32(sp.Uid) || uint32(s) != uint32(sp.Uid) {
		return fmt.Errorf("still uid %d/%d/%d", uint32(r), uint32(e), uint32(s))
	}
	for c := uintptr(0); c < 64; c++ {
		if n, e := prctl(syscall.PR_CAPBSET_READ, c); e == 0 && n != 0 {
			return fmt.Errorf("capability %d left in the bounding set", c)
		}
	}
	return nil
}

// capHeader and capData are struct __user_cap_header_struct and
// __user_cap_data_struct (linux/capability.h).
type capHeader struct {
	version uint32
	pid     int32
}

type capData struct {
	effective, permitted, inheritable uint32
}

// executableBy makes sure that uid and gid may execute the program open as
// fd. The launcher opened it while still root; the kernel checks the
// permission to execute it with the ids of the exec, but not the folders
// above it, since the exec goes by descriptor. A program that kurs built
// in a private folder under a strict umask lacks the bit: it gets it for
// others (whose permission counts for uid), and its folder keeps them out.
func executableBy(fd, uid, gid int) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return err
	}
	bit := uint32(0o001)
	switch {
	case int(st.Uid) == uid:
		bit = 0o100
	case int(st.Gid) == gid:
		bit = 0o010
	}
	if st.Mode&bit != 0 {
		return nil
	}
	if err := syscall.Chmod(fmt.Sprintf("/proc/self/fd/%d", fd), st.Mode&0o7777|bit); err != nil {
		return fmt.Errorf("make the program executable by uid %d: %v", uid, err)
	}
	return nil
}

// landlockRuleset is struct landlock_ruleset_attr up to ABI 6.
type landlockRuleset struct {
	fs, net, scoped uint64
}

// landlockPathBeneath is struct landlock_path_beneath_attr, which the
// kernel reads packed: 12 bytes, the padding after them unread.
type landlockPathBeneath struct {
	allowedAccess uint64
	parentFD      int32
}

// landlock restricts this thread to executing and reading the file open as
// fd, and, as far as the ABI goes, forbids TCP bind and connect, signals to
// processes outside the domain and abstract unix sockets outside it.
func landlock(abi, fd int) error {
	attr := landlockRuleset{fs: 1<<13 - 1} // ABI 1: execute .. make_sym
	if abi >= 2 {
		attr.fs |= landlockAccessFSRefer
	}
	if abi >= 3 {
		attr.fs |= landlockAccessFSTruncate
	}
	if abi >= 5 {
		attr.fs |= landlockAccessFSIoctlDev
	}
	if abi >= 4 {
		attr.net = landlockAccessNetBindTCP | landlockAccessNetConnectTCP
	}
	if abi >= 6 {
		attr.scoped = landlockScopeAbstractUnixSocket | landlockScopeSignal
	}
	rfd, _, e := syscall.RawSyscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return fmt.Errorf("create ruleset: %v", e)
	}
	defer syscall.Close(int(rfd))
	rule := landlockPathBeneath{
		allowedAccess: landlockAccessFSExecute | landlockAccessFSReadFile,
		parentFD:      int32(fd),
	}
	if _, _, e := syscall.RawSyscall6(sysLandlockAddRule, rfd, landlockRulePathBeneath, uintptr(unsafe.Pointer(&rule)), 0, 0, 0); e != 0 {
		return fmt.Errorf("add rule: %v", e)
	}
	if _, _, e := syscall.RawSyscall(sysLandlockRestrictSelf, rfd, 0, 0); e != 0 {
		return fmt.Errorf("restrict self: %v", e)
	}
	return nil
}

// planChildAttr makes a program of a plan die with its launcher.
func planChildAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

package sandbox

import (
	"cmp"
	"fmt"
	"os"
	"runtime"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// self is the launcher's executable. /proc/self/exe names the running
// binary even after it was replaced or deleted on disk.
func self() string {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe"
	}
	exe, _ := os.Executable()
	return exe
}

// sysProcAttr starts the launcher in its own process group and, for a
// confined program, in the namespaces that st says the system allows. The
// launcher dies with the thread that started it (Pdeathsig), so even a
// SIGKILL of kurs leaves no program behind; Go keeps that thread alive
// unless a goroutine locked to it ends.
func sysProcAttr(p Policy, st Status) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if p.Confine {
		setNamespaces(a, st)
	}
	return a
}

// setNamespaces asks for the namespaces in st. A new user namespace gets
// the caller's own ids mapped to themselves: all of them when the caller is
// root (so SysProcAttr.Credential can still name another user), else only
// the caller's uid and gid, which is all the kernel allows.
func setNamespaces(a *syscall.SysProcAttr, st Status) {
	if st.PIDNamespace {
		a.Cloneflags |= syscall.CLONE_NEWPID
	}
	if st.NetNamespace {
		a.Cloneflags |= syscall.CLONE_NEWNET
	}
	if !st.UserNamespace {
		return
	}
	a.Cloneflags |= syscall.CLONE_NEWUSER
	uid, gid := os.Geteuid(), os.Getegid()
	if uid == 0 {
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
		a.GidMappingsEnableSetgroups = true
		return
	}
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
}

// confine fills in the spec of a confined program for the layers in st:
// the filters, the limits that hold here, and the ids it runs as.
func confine(sp *spec, st Status) {
	sp.Seccomp, sp.Landlock = st.Seccomp, st.Landlock
	switch {
	case sp.Policy.AddressSpace > 0:
		sp.AddressSpace = sp.Policy.AddressSpace
	case sp.Policy.AddressSpace == 0 && sp.Memory > 0:
		sp.AddressSpace = sp.Memory + AddressHeadroom
	}
	if st.ThreadLimit {
		sp.Threads = cmp.Or(sp.Policy.Threads, DefaultThreads)
	}
	if os.Geteuid() == 0 {
		sp.Uid, sp.Gid = Nobody, Nobody
	}
}

var layers = sync.OnceValue(probe)

// probe measures what this system gives: seccomp and Landlock by asking
// the kernel, namespaces by starting a child in them.
func probe() Status {
	st := Status{ProcessGroup: true, Rlimits: true, NoNewPrivs: true, NoPrivileges: true}
	var notes []string
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err != nil {
		notes = append(notes, "no seccomp in this kernel")
	} else if arch() == nil {
		notes = append(notes, "no seccomp filter for "+runtime.GOARCH)
	} else {
		st.Seccomp = true
	}
	abi, _, errno := unix.RawSyscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno == 0 && int(abi) > 0 {
		st.Landlock = int(abi)
	} else {
		notes = append(notes, "no Landlock: "+errno.Error())
	}
	tries := []Status{
		{PIDNamespace: true, NetNamespace: true, UserNamespace: true},
		{PIDNamespace: true, NetNamespace: true},
	}
	var nsErr error
	for _, ns := range tries {
		if nsErr = startProbe(ns); nsErr == nil {
			st.PIDNamespace, st.NetNamespace, st.UserNamespace = ns.PIDNamespace, ns.NetNamespace, ns.UserNamespace
			break
		}
	}
	if nsErr != nil {
		notes = append(notes, "no namespaces: "+nsErr.Error())
	}
	// Without a user namespace of its own, an unprivileged program's
	// threads count with every process of its user.
	st.ThreadLimit = st.UserNamespace || os.Geteuid() == 0
	if len(notes) > 0 {
		st.Note = fmt.Sprint(notes)
		st.Note = st.Note[1 : len(st.Note)-1]
	}
	return st
}

// startProbe reports whether a child can start in the namespaces of ns.
// The child executes a path that cannot exist: its exec fails inside the
// namespaces, after the clone and the writing of its id maps succeeded,
// and it never starts the launcher, which costs a start of kurs.
func startProbe(ns Status) error {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	setNamespaces(attr, ns)
	pid, err := syscall.ForkExec(noProgram, []string{noProgram}, &syscall.ProcAttr{Sys: attr})
	switch {
	case err == syscall.ENOTDIR || err == syscall.ENOENT:
		return nil // ForkExec reaped the child
	case err != nil:
		return err
	}
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(pid, &ws, 0, nil)
	return fmt.Errorf("%s exists and ran: %v", noProgram, ws)
}

// noProgram is a path that names no file: /dev/null is not a folder.
const noProgram = "/dev/null/kurs-namespace-probe"

// execute executes the program: plainly, or after confining this thread.
func execute(sp *spec, argv, env []string) error {
	if !sp.Confine {
		return unix.Exec(sp.Path, argv, env)
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
	fd, err := unix.Open(sp.Path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open %s: %v", sp.Path, err)
	}
	if err := dropPrivileges(sp, fd); err != nil {
		return fmt.Errorf("drop privileges: %v", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %v", err)
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
		fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
		if _, _, e := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); e != 0 {
			return fmt.Errorf("seccomp: %v", e)
		}
		runtime.KeepAlive(prog)
	}
	for {
		_, _, e := unix.RawSyscall6(unix.SYS_EXECVEAT, uintptr(fd), uintptr(unsafe.Pointer(&empty[0])),
			uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])), unix.AT_EMPTY_PATH, 0)
		if e != unix.EINTR && e != unix.EAGAIN {
			return fmt.Errorf("exec %s: %v", sp.Path, e)
		}
	}
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
func dropPrivileges(sp *spec, fd int) error {
	switched := unix.Geteuid() == 0 && sp.Uid > 0
	if switched {
		if err := executableBy(fd, sp.Uid, sp.Gid); err != nil {
			return err
		}
		var deathSig int32
		if _, _, e := unix.RawSyscall(unix.SYS_PRCTL, unix.PR_GET_PDEATHSIG, uintptr(unsafe.Pointer(&deathSig)), 0); e != 0 {
			return fmt.Errorf("parent-death signal: %v", e)
		}
		for c := uintptr(0); c < 64; c++ {
			if _, _, e := unix.RawSyscall(unix.SYS_PRCTL, unix.PR_CAPBSET_DROP, c, 0); e != 0 && e != unix.EINVAL {
				return fmt.Errorf("bounding set: %v", e)
			}
		}
		if _, _, e := unix.RawSyscall(unix.SYS_SETGROUPS, 0, 0, 0); e != 0 {
			return fmt.Errorf("setgroups: %v", e)
		}
		if _, _, e := unix.RawSyscall(unix.SYS_SETRESGID, uintptr(sp.Gid), uintptr(sp.Gid), uintptr(sp.Gid)); e != 0 {
			return fmt.Errorf("setresgid %d: %v", sp.Gid, e)
		}
		if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, uintptr(sp.Uid), uintptr(sp.Uid), uintptr(sp.Uid)); e != 0 {
			return fmt.Errorf("setresuid %d: %v", sp.Uid, e)
		}
		if deathSig != 0 {
			if _, _, e := unix.RawSyscall(unix.SYS_PRCTL, unix.PR_SET_PDEATHSIG, uintptr(deathSig), 0); e != 0 {
				return fmt.Errorf("parent-death signal: %v", e)
			}
		}
	}
	// Kernels before 4.3 have no ambient set.
	if _, _, e := unix.RawSyscall6(unix.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0, 0); e != 0 && e != unix.EINVAL {
		return fmt.Errorf("ambient set: %v", e)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var caps [2]unix.CapUserData
	if err := unix.Capset(&hdr, &caps[0]); err != nil {
		return fmt.Errorf("capset: %v", err)
	}
	if err := unix.Capget(&hdr, &caps[0]); err != nil {
		return fmt.Errorf("capget: %v", err)
	}
	if caps != [2]unix.CapUserData{} {
		return fmt.Errorf("capabilities left: %+v", caps)
	}
	if !switched {
		return nil
	}
	var r, e, s uintptr
	unix.RawSyscall(unix.SYS_GETRESUID, uintptr(unsafe.Pointer(&r)), uintptr(unsafe.Pointer(&e)), uintptr(unsafe.Pointer(&s)))
	if uint32(r) != uint32(sp.Uid) || uint32(e) != uint32(sp.Uid) || uint32(s) != uint32(sp.Uid) {
		return fmt.Errorf("still uid %d/%d/%d", uint32(r), uint32(e), uint32(s))
	}
	for c := uintptr(0); c < 64; c++ {
		if n, _, e := unix.RawSyscall(unix.SYS_PRCTL, unix.PR_CAPBSET_READ, c, 0); e == 0 && n != 0 {
			return fmt.Errorf("capability %d left in the bounding set", c)
		}
	}
	return nil
}

// executableBy makes sure that uid and gid may execute the program open as
// fd. The launcher opened it while still root; the kernel checks the
// permission to execute it with the ids of the exec, but not the folders
// above it, since the exec goes by descriptor. A program that kurs built
// in a private folder under a strict umask lacks the bit: it gets it for
// others (whose permission counts for uid), and its folder keeps them out.
func executableBy(fd, uid, gid int) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
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
	if err := unix.Fchmodat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", fd), st.Mode&0o7777|bit, 0); err != nil {
		return fmt.Errorf("make the program executable by uid %d: %v", uid, err)
	}
	return nil
}

// landlockRuleset is struct landlock_ruleset_attr up to ABI 6.
type landlockRuleset struct {
	fs, net, scoped uint64
}

// landlock restricts this thread to executing and reading the file open as
// fd, and, as far as the ABI goes, forbids TCP bind and connect, signals to
// processes outside the domain and abstract unix sockets outside it.
func landlock(abi, fd int) error {
	attr := landlockRuleset{fs: 1<<13 - 1} // ABI 1: execute .. make_sym
	if abi >= 2 {
		attr.fs |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		attr.fs |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		attr.fs |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	if abi >= 4 {
		attr.net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	}
	if abi >= 6 {
		attr.scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
	}
	rfd, _, e := unix.RawSyscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return fmt.Errorf("create ruleset: %v", e)
	}
	defer unix.Close(int(rfd))
	rule := unix.LandlockPathBeneathAttr{
		Allowed_access: unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE,
		Parent_fd:      int32(fd),
	}
	if _, _, e := unix.RawSyscall6(unix.SYS_LANDLOCK_ADD_RULE, rfd, unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&rule)), 0, 0, 0); e != 0 {
		return fmt.Errorf("add rule: %v", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_LANDLOCK_RESTRICT_SELF, rfd, 0, 0); e != 0 {
		return fmt.Errorf("restrict self: %v", e)
	}
	return nil
}

// planChildAttr makes a program of a plan die with its launcher.
func planChildAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

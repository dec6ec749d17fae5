package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
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

var layers = sync.OnceValue(probe)

// probe measures what this system gives: seccomp and Landlock by asking
// the kernel, namespaces by starting the launcher in them.
func probe() Status {
	st := Status{ProcessGroup: true, Rlimits: true, NoNewPrivs: true}
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
	if len(notes) > 0 {
		st.Note = fmt.Sprint(notes)
		st.Note = st.Note[1 : len(st.Note)-1]
	}
	return st
}

// startProbe runs the launcher in the namespaces of ns and reports whether
// it started and ended well.
func startProbe(ns Status) error {
	cmd := exec.Command(self())
	cmd.Args = []string{marker, `{"Probe":true}`}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	setNamespaces(cmd.SysProcAttr, ns)
	if err := cmd.Run(); err != nil {
		var errno syscall.Errno
		if errors.As(err, &errno) {
			return errno
		}
		return err
	}
	return nil
}

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

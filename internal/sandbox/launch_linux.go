package sandbox

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/kurs-course/kurs/internal/sandbox/launch"
)

// groupRuns reports whether a process of the process group pgid runs, one
// that has not ended: /proc tells each process's state and group.
func groupRuns(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range entries {
		if state, pgrp, ok := procStat(e.Name()); ok && pgrp == pgid && !ended(state) {
			return true
		}
	}
	return false
}

// procStat returns the state ("R", "S", "Z", …) and the process group of
// the process named pid in /proc, and false when /proc has no such
// process (not a process's name, or it ended meanwhile).
func procStat(pid string) (state string, pgrp int, ok bool) {
	if _, err := strconv.Atoi(pid); err != nil {
		return "", 0, false
	}
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return "", 0, false
	}
	// "pid (name) state ppid pgrp ...": the name may hold anything.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(f) < 3 {
		return "", 0, false
	}
	pgrp, err = strconv.Atoi(f[2])
	return f[0], pgrp, err == nil
}

// ended reports whether a process in state has ended and only waits to be
// reaped by its parent.
func ended(state string) bool { return state == "Z" || state == "X" }

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
func confine(sp *launch.Spec, p Policy, st Status) {
	sp.Seccomp, sp.Landlock = st.Seccomp, st.Landlock
	switch {
	case p.AddressSpace > 0:
		sp.AddressSpace = p.AddressSpace
	case p.AddressSpace == 0 && p.Memory > 0:
		sp.AddressSpace = p.Memory + AddressHeadroom
	}
	if st.ThreadLimit {
		sp.Threads = cmp.Or(p.Threads, DefaultThreads)
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
	} else if !launch.HasFilter() {
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

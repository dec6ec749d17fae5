// Package sandbox starts child processes under kernel limits: the learner's
// test program confined (seccomp, no_new_privs, Landlock, namespaces and
// resource limits on Linux), and the build of the learner's code limited
// (resource limits and a process group).
//
// Go's os/exec cannot run code between fork and exec, where such limits
// belong. So [Command] starts a launcher, with the policy and the real
// program in its arguments: it sets the resource limits, applies the
// confinement on one locked OS thread and, from that thread, executes the
// real program. Seccomp filters, no_new_privs and Landlock domains belong
// to a thread and survive execve from it, and execve ends the launcher's
// other threads; so the program starts confined, with nothing of the
// launcher left. The launcher's code is package launch, which needs
// nothing but the standard library: [LauncherModule] gives its sources as
// a module whose small static program starts about as fast as any small
// Go binary, and [Policy].Launcher names that program once it is built.
// Without one, the current executable is started again as the launcher:
// this package's init function runs the same code, before main, in any
// binary that links it (kurs itself, every go test binary), though only
// after the packages that initialise before it.
//
// What holds depends on the system; [Layers] reports it. On Linux, a
// confined program can only compute, read and write the descriptors it was
// given, make threads, sleep and end; it cannot open a file, make a socket,
// start or execute a program, signal another process, map memory that its
// limits do not count, or raise its limits. It holds no capability, and
// when kurs runs as root it runs as uid and gid [Nobody].
// On macOS the launcher applies the resource limits and the child runs in
// its own process group; on Windows the child is a plain process that
// [Kill] ends.
package sandbox

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/sandbox/launch"
)

// Policy says how a child runs. The zero value limits nothing: it starts
// the program through the launcher in its own process group, with no core
// dumps.
type Policy struct {
	// Confine applies the kernel confinement meant for the learner's
	// program, which must be a static binary that needs nothing but its
	// standard descriptors, the descriptors in ExtraFiles, threads and
	// time. It cannot start programs or open files, nor make memory
	// writable with mprotect: one linked with the C library must make its
	// threads' stacks and its heap without that call, as the race
	// detector's build does (internal/harness/guard).
	Confine bool

	// Memory caps each process's data segment (RLIMIT_DATA), which bounds
	// a Go program's heap; 0 leaves the limit as inherited.
	Memory int64

	// AddressSpace caps a confined program's virtual memory (RLIMIT_AS) on
	// Linux, which bounds what RLIMIT_DATA does not count. 0 means Memory
	// plus [AddressHeadroom] when Memory is set, and no limit otherwise; a
	// negative value sets no limit.
	AddressSpace int64

	// Threads caps the threads of a confined program (RLIMIT_NPROC) on
	// Linux where the kernel can count them for it: when it runs in a
	// user namespace of its own, or under an id of its own (kurs as
	// root); see Status.ThreadLimit. 0 means [DefaultThreads].
	Threads int

	// CPU caps each process's processor time (RLIMIT_CPU), rounded up to
	// whole seconds; the kernel kills the process when it is used up.
	// 0 leaves the limit as inherited.
	CPU time.Duration

	// FileSize caps the size of any file a process writes (RLIMIT_FSIZE);
	// a write beyond it fails. 0 leaves the limit as inherited.
	FileSize int64

	// Files caps the number of open descriptors (RLIMIT_NOFILE). 0 means
	// 64 for a confined program and the inherited limit otherwise.
	Files int

	// Launcher is the launcher program that starts the child: one built
	// from [LauncherModule], which starts in a fraction of kurs's time.
	// "" means the running executable, which links this package and so
	// is a launcher too, the same code at the cost of its own start. A
	// command started under another user's Credential needs a launcher
	// that user may execute (kurs's cache, where the launcher program is
	// kept, is its own user's alone).
	Launcher string
}

// AddressHeadroom is what a confined program's address space may exceed
// its data limit by: the Go runtime's reservations, about 1.2 GiB for a
// program that has allocated nothing, and the race detector's, which
// bring its build to 1.6 GiB at start (measured with Go 1.26 on amd64).
// The race detector, short of address space, misses races without a word,
// so the headroom is wide. It bounds no read-write memory, which the data
// limit does (see docs/security.md), only what the address space costs
// the kernel: page tables for at most this much.
const AddressHeadroom = 4 << 30

// DefaultThreads is a confined program's thread limit: far above the few
// dozen threads a Go program uses, even with one per processor on a large
// machine, and far below what exhausts a machine's process ids.
const DefaultThreads = 256

// Nobody is the user and group id a confined program runs as when kurs
// runs as root: the kernel's overflow id, which owns nothing.
const Nobody = 65534

// ExitLaunch is the exit status of a launcher that could not start the
// program under its policy (for example, a missing program, or a
// confinement layer that Layers promised but the kernel refused). The
// launcher then says why on its standard error, prefixed "kurs sandbox:".
// It never starts a program with less confinement than Layers reported.
const ExitLaunch = launch.ExitLaunch

// Status reports which layers hold for a child that Command starts. Every
// field is false or 0 where the system lacks the layer.
type Status struct {
	// ProcessGroup: the child runs in its own process group, which Kill
	// and the context's cancellation end as a whole.
	ProcessGroup bool
	// Rlimits: the launcher applies Memory, CPU, FileSize and Files, and
	// sets RLIMIT_CORE to 0.
	Rlimits bool
	// NoNewPrivs: a confined program can gain no privileges by exec.
	NoNewPrivs bool
	// Seccomp: a confined program may make only the syscalls the Go
	// runtime needs (see the package documentation).
	Seccomp bool
	// Landlock is the Landlock ABI version applied to a confined program,
	// 0 if none: no file access but executing its own binary, from ABI 4
	// no TCP bind or connect, from ABI 6 no signals to and no abstract
	// unix sockets of processes outside it.
	Landlock int
	// PIDNamespace: a confined program is the first process of its own pid
	// namespace; it sees no other process, and when it ends the kernel
	// ends everything in the namespace.
	PIDNamespace bool
	// NetNamespace: a confined program has a network stack of its own,
	// without interfaces.
	NetNamespace bool
	// UserNamespace: the namespaces above are owned by a new user
	// namespace, so a confined program keeps no capability of the
	// caller's, even when the caller is root.
	UserNamespace bool
	// NoPrivileges: a confined program holds no capability (effective,
	// permitted, inheritable and ambient sets empty). When kurs runs as
	// root it also runs as uid and gid [Nobody], with no supplementary
	// groups and an empty bounding set. Unprivileged, it keeps the
	// caller's ids and the bounding set of its user namespace, from which
	// no_new_privs lets it gain nothing.
	NoPrivileges bool
	// ThreadLimit: Policy.Threads bounds a confined program's threads.
	// The kernel counts them per user id and user namespace, so the limit
	// is the program's alone when UserNamespace holds; as root without
	// one, every process of uid Nobody on the machine counts towards it.
	ThreadLimit bool
	// Note says why a layer is missing, if one is.
	Note string
}

// Confined reports whether a confined program is held by the kernel rather
// than by the static checks alone: seccomp with no_new_privs at least.
func (s Status) Confined() bool { return s.Seccomp && s.NoNewPrivs }

// String lists the layers that hold, for logs and results.
func (s Status) String() string {
	var l []string
	add := func(ok bool, name string) {
		if ok {
			l = append(l, name)
		}
	}
	add(s.Seccomp, "seccomp")
	add(s.NoNewPrivs, "no_new_privs")
	if s.Landlock > 0 {
		l = append(l, "landlock-v"+strconv.Itoa(s.Landlock))
	}
	add(s.PIDNamespace, "pid-namespace")
	add(s.NetNamespace, "net-namespace")
	add(s.UserNamespace, "user-namespace")
	add(s.NoPrivileges, "no-privileges")
	add(s.ThreadLimit, "thread-limit")
	add(s.Rlimits, "rlimits")
	add(s.ProcessGroup, "process-group")
	if len(l) == 0 {
		l = append(l, "process")
	}
	out := strings.Join(l, ",")
	if s.Note != "" {
		out += " (" + s.Note + ")"
	}
	return out
}

// Layers reports which layers this system gives a child that Command
// starts. On Linux it is measured once, by starting a child in fresh
// namespaces, and then kept.
func Layers() Status { return layers() }

// Command returns a command that runs the program name with args under p.
// Like exec.CommandContext, it looks name up in PATH if it has no slash,
// and a relative name is taken relative to the command's Dir.
//
// The caller may set Stdin, Stdout, Stderr, ExtraFiles, Env, Dir and
// WaitDelay (1 s unless changed), and, on Linux as root, SysProcAttr's
// Credential; it must not replace SysProcAttr, Path or Args, which start
// the launcher. A launcher started under another user's Credential is not
// root: a confined program then keeps that user's ids and its bounding set,
// as when kurs runs unprivileged. Cancelling ctx ends the program and
// everything it started (Cancel calls Kill). Starting the command starts
// the launcher, which becomes the program under the same process id.
func Command(ctx context.Context, p Policy, name string, args ...string) *exec.Cmd {
	return command(ctx, p, layersFor(p), name, args)
}

// layersFor returns the layers that a program started under p needs to
// know of: only a confined program uses them, and measuring them starts a
// child in fresh namespaces, which a build's tools need not wait for.
func layersFor(p Policy) Status {
	if !p.Confine {
		return Status{}
	}
	return Layers()
}

// CommandFrom is [Command] with launcher, the launcher program or another
// binary that links this package, as the launcher; "" means p.Launcher. It
// lets a benchmark or a test measure kurs's launcher from a program of its
// own. Where there is no launcher it is Command.
func CommandFrom(ctx context.Context, launcher string, p Policy, name string, args ...string) *exec.Cmd {
	if launcher != "" {
		p.Launcher = launcher
	}
	return command(ctx, p, layersFor(p), name, args)
}

// Trusted returns a command that runs a program kurs built from its own
// code, such as a judge, without the launcher: in its own process group,
// ended with everything it started when ctx is cancelled or by Kill, and
// on Linux when kurs dies. It applies no limits; the program sets its own.
// Starting a launcher costs a process start and kurs's initialisation, which
// a class of submissions pays thousands of times.
func Trusted(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.SysProcAttr = sysProcAttr(Policy{}, Status{})
	cmd.Cancel = func() error { return kill(cmd) }
	cmd.WaitDelay = time.Second
	return cmd
}

// Kill ends the program that cmd started and, as far as Layers says that
// holds, everything the program started: its process group, and on Linux
// with a pid namespace every process in it. It does nothing for a command
// that has not started. It does not wait: call cmd.Wait.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = kill(cmd)
	}
}

// marker is the launcher's argv[0]. An argument rather than an
// environment variable, so a caller that sets cmd.Env cannot lose it; and
// the program's own environment stays exactly the caller's.
const marker = launch.Marker

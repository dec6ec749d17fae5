package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/kurs-course/kurs/internal/browsertest"
)

// fixture is the compromised program and guarded the one with the guard,
// built once by TestMain, which also builds tiny, the launcher program.
var fixture, guarded string

// TestMain builds the fixtures and the launcher program, unless
// KURS_SANDBOX_FIXTURES names a folder where they are built already (for a
// run as a user that cannot read the module cache).
func TestMain(m *testing.M) {
	if prog := os.Getenv("KURS_SANDBOX_PARENT"); prog != "" {
		tiny = os.Getenv("KURS_SANDBOX_LAUNCHER")
		parent(prog)
	}
	if dir := os.Getenv("KURS_SANDBOX_FIXTURES"); dir != "" {
		fixture, guarded, tiny = filepath.Join(dir, "compromised"), filepath.Join(dir, "guarded"), filepath.Join(dir, "launcher")
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "kurs-sandbox-fixture-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixture, guarded, tiny = filepath.Join(dir, "compromised"), filepath.Join(dir, "guarded"), filepath.Join(dir, "launcher")
	build := exec.Command("go", "build", "-o", dir, "./testdata/compromised", "./testdata/guarded")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	if err == nil {
		out, err = buildLauncher(tiny)
	}
	// Readable for the run as another user.
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	code := 1
	if err != nil {
		fmt.Fprintf(os.Stderr, "build the fixture: %v\n%s", err, out)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildLauncher builds the launcher program of LauncherModule into name,
// statically and offline, as kurs does.
func buildLauncher(name string) ([]byte, error) {
	src, err := os.MkdirTemp("", "kurs-sandbox-launcher-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(src)
	for file, data := range LauncherModule("1.22") {
		file = filepath.Join(src, file)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return nil, err
		}
	}
	build := exec.Command("go", "build", "-trimpath", "-o", name, "./internal/run")
	build.Dir = src
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOPROXY=off", "GOFLAGS=")
	return build.CombinedOutput()
}

// How each attempt of the compromised program may end: only with the
// errors by which a sandbox refuses.
// ENOMEM is how a memory limit refuses.
var refusals = map[string]bool{"EPERM": true, "EACCES": true, "ENOSYS": true, "ENOMEM": true}

// attempts are the escapes the fixture tries, in its order.
var attempts = strings.Fields(`read-status setuid-root read-etc read-secret
	create remove mkdir symlink chmod truncate rename openat2 readdir
	tcp-connect unix-socket socketpair fork clone3 exec-sh start-sh setsid
	setpgid ptrace-parent kill-all kill-parent tgkill-parent process-vm-readv
	mount unshare-user unshare-net setrlimit prctl-dumpable mmap-exec
	mmap-shared mmap-shared-small mmap-shared-validate mmap-growsdown
	mremap-grow memfd io-uring userfaultfd bpf perf-event-open exec-self`)

func TestCompromisedProgram(t *testing.T) {
	st := Layers()
	t.Logf("layers: %v", st)
	if !st.Confined() {
		t.Fatalf("no confinement on Linux: %v", st)
	}
	t.Run("caller", func(t *testing.T) { attack(t, tiny, st, nil, attempts) })
	// The same through the fallback, the test binary as its own launcher.
	t.Run("self", func(t *testing.T) { attack(t, "", st, nil, attempts) })
	if os.Geteuid() == 0 {
		// The same, with the launcher as an unprivileged user, as on a
		// grader that does not run as root.
		t.Run("nobody", func(t *testing.T) {
			attack(t, tiny, st, &syscall.Credential{Uid: 65534, Gid: 65534}, attempts)
		})
	}
}

// parent runs the confined program prog as a kurs would, prints its
// process id and waits to be killed.
func parent(prog string) {
	cmd := Command(context.Background(), Policy{Launcher: tiny, Confine: true, Memory: 256 << 20}, prog, "sleep")
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	fmt.Println(cmd.Process.Pid, strings.TrimSpace(line))
	select {}
}

// A confined program ends when kurs is killed: the change of ids clears
// the parent-death signal, which the launcher sets again.
func TestEndsWithKurs(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "KURS_SANDBOX_PARENT="+fixture, "KURS_SANDBOX_LAUNCHER="+tiny)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	pid, err := strconv.Atoi(strings.TrimSuffix(line, " sleeping\n"))
	if err != nil {
		t.Fatalf("the parent said %q", line)
	}
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	t.Logf("the program:\n%s", regexp.MustCompile(`(?m)^(Uid|CapEff|Seccomp):.*$`).FindAll(status, -1))
	cmd.Process.Kill()
	if left := group(pid); len(left) > 0 {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the program %d outlived its parent: %v", pid, left)
	}
}

// As root, the program runs as 65534 although only root may read its
// folder or execute it: the launcher executes it by descriptor and gives
// others the right to execute it.
func TestPrivateProgram(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root changes ids")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "private")
	if err := os.WriteFile(prog, data, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := Command(context.Background(), Policy{Launcher: tiny, Confine: true, Memory: 256 << 20}, prog, "exit")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the folder: %v, %v", fi.Mode(), err)
	}
}

// Each layer on its own stops the escapes it is meant for.
func TestLayersAlone(t *testing.T) {
	st := Layers()
	t.Run("seccomp", func(t *testing.T) {
		attack(t, tiny, Status{ProcessGroup: true, Rlimits: true, NoNewPrivs: true, Seccomp: true}, nil, attempts)
	})
	if st.Landlock < 6 {
		t.Skipf("Landlock ABI %d", st.Landlock)
	}
	t.Run("landlock", func(t *testing.T) {
		attack(t, tiny, Status{ProcessGroup: true, Rlimits: true, NoNewPrivs: true, Landlock: st.Landlock}, nil,
			strings.Fields(`read-status setuid-root read-etc read-secret create remove
				mkdir symlink truncate rename openat2 readdir tcp-connect unix-socket
				exec-sh start-sh ptrace-parent kill-parent tgkill-parent
				process-vm-readv mount mmap-shared mmap-growsdown mremap-grow`))
	})
}

// The guard's own filter stacks on the launcher's: the launcher allows
// adding a filter, and the program keeps running under both.
func TestGuardUnderLauncher(t *testing.T) {
	cmd := Command(context.Background(), Policy{Launcher: tiny, Confine: true}, guarded)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("the guarded program: %v\n%s", err, stderr.String())
		}
	}()
	if l, _ := bufio.NewReader(stdout).ReadString('\n'); l != "ready\n" {
		t.Fatalf("got %q\n%s", l, stderr.String())
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(status), "Seccomp_filters:\t2\n") {
		t.Errorf("want two filters, the launcher's and the guard's:\n%s", status)
	}
}

// attack runs the fixture confined with the layers of st, started by
// launcher ("" for the test binary itself), as cred if not nil, and checks
// that every attempt in want is refused and leaves no trace.
func attack(t *testing.T, launcher string, st Status, cred *syscall.Credential, want []string) {
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o755) // t.TempDir's folders are 0700
	}
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("secret"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "mnt"), 0o777); err != nil {
		t.Fatal(err)
	}
	var connections atomic.Int32
	listen := func(network, addr string) net.Listener {
		ln, err := net.Listen(network, addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				connections.Add(1)
				c.Close()
			}
		}()
		return ln
	}
	tcp := listen("tcp", "127.0.0.1:0")
	abstract := fmt.Sprintf("kurs-sandbox-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	listen("unix", "@"+abstract)

	r3, w3, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r3.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	port := strconv.Itoa(tcp.Addr().(*net.TCPAddr).Port)
	cmd := command(ctx, Policy{Launcher: launcher, Confine: true, Memory: 256 << 20, CPU: 10 * time.Second, FileSize: 1 << 20},
		st, fixture, []string{"attack", strconv.Itoa(os.Getpid()), dir, port, abstract})
	cmd.SysProcAttr.Credential = cred
	cmd.ExtraFiles = []*os.File{w3}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w3.Close()
	defer func() {
		Kill(cmd)
		cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	next := func() string {
		if !lines.Scan() {
			t.Fatalf("the fixture ended early: %v\nstderr: %s", lines.Err(), stderr.String())
		}
		return lines.Text()
	}
	if l := next(); l != "runtime ok" {
		t.Fatalf("the Go runtime does not work confined: %q\nstderr: %s", l, stderr.String())
	}
	ids := next()
	if l := next(); l != "ready" {
		t.Fatalf("got %q, want ready", l)
	}
	fd3, _ := io.ReadAll(r3)
	if string(fd3) != "fd3 works\n" {
		t.Errorf("fd 3 carried %q", fd3)
	}

	// The program runs now, after the launcher's exec: it is the fixture,
	// under seccomp and no_new_privs.
	pid := cmd.Process.Pid
	if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err != nil || exe != fixture {
		t.Errorf("process %d runs %q (%v), want the fixture", pid, exe, err)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"NoNewPrivs:\t1\n", "Seccomp:\t2\n"} {
		if !st.Seccomp && want == "Seccomp:\t2\n" {
			continue
		}
		if !strings.Contains(string(status), want) {
			t.Errorf("status of the confined program lacks %q:\n%s", want, status)
		}
	}
	privileges(t, st, cred, pid, string(status), ids)

	fmt.Fprintln(stdin, "go")
	got := map[string]string{}
	for {
		l := next()
		if l == "done" {
			break
		}
		name, outcome, _ := strings.Cut(l, " ")
		got[name] = outcome
	}
	var log strings.Builder
	for _, name := range attempts {
		fmt.Fprintf(&log, "\n%-16s %s", name, got[name])
	}
	t.Logf("outcomes:%s", log.String())
	for _, name := range want {
		outcome, ok := got[name]
		verb, errno, _ := strings.Cut(outcome, " ")
		switch {
		case !ok:
			t.Errorf("%s: not tried", name)
		case verb != "denied" || !refusals[errno]:
			t.Errorf("%s: %s, want a refusal", name, outcome)
		}
	}
	if len(want) == len(attempts) && len(got) != len(attempts) {
		t.Errorf("the fixture tried %d escapes, the test knows %d", len(got), len(attempts))
	}
	if n := connections.Load(); n != 0 {
		t.Errorf("the listeners saw %d connections", n)
	}
	if b, err := os.ReadFile(secret); err != nil || string(b) != "secret" {
		t.Errorf("secret is %q, %v", b, err)
	}
	for _, name := range []string{"created", "newdir", "link", "moved"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s exists", name)
		}
	}

	// Kill ends the program and everything it started.
	Kill(cmd)
	cmd.Wait()
	if left := group(pid); len(left) > 0 {
		t.Errorf("processes left after Kill: %v", left)
	}
}

// privileges checks that the confined program pid, whose status is status
// and which reported ids, holds no privilege and has its limits: no
// capability, not root, no supplementary groups, a finite address space
// and, where the kernel counts them for it, a thread limit.
func privileges(t *testing.T, st Status, cred *syscall.Credential, pid int, status, ids string) {
	t.Helper()
	t.Logf("the program: %s", ids)
	root := os.Geteuid() == 0 && cred == nil
	caps := []string{"CapInh", "CapPrm", "CapEff", "CapAmb"}
	if root {
		// Unprivileged, the bounding set of its user namespace stays:
		// no_new_privs lets the program gain nothing from it.
		caps = append(caps, "CapBnd")
	}
	for _, c := range caps {
		if !strings.Contains(status, "\n"+c+":\t0000000000000000\n") {
			t.Errorf("%s is not empty:\n%s", c, status)
		}
	}
	// Unprivileged, the program keeps the caller's groups: a user
	// namespace may not drop them.
	want := fmt.Sprintf("uid=%[1]d,%[1]d,%[1]d gid=%[2]d,%[2]d,%[2]d groups=", os.Getuid(), os.Getgid())
	if os.Geteuid() == 0 {
		want = fmt.Sprintf("uid=%[1]d,%[1]d,%[1]d gid=%[1]d,%[1]d,%[1]d groups=[]", Nobody)
		if !strings.Contains(status, fmt.Sprintf("\nUid:\t%[1]d\t%[1]d\t%[1]d\t%[1]d\n", Nobody)) ||
			!strings.Contains(status, fmt.Sprintf("\nGid:\t%[1]d\t%[1]d\t%[1]d\t%[1]d\n", Nobody)) ||
			!regexp.MustCompile(`\nGroups:[ \t]*\n`).MatchString(status) {
			t.Errorf("the program does not run as %d without groups:\n%s", Nobody, status)
		}
	}
	if !strings.HasPrefix(ids, "ids "+want) {
		t.Errorf("the program sees %q, want %q", ids, want)
	}
	limits, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
	if err != nil {
		t.Fatal(err)
	}
	as := strconv.Itoa(256<<20 + AddressHeadroom)
	if !regexp.MustCompile(`\nMax address space +` + as + ` +` + as + ` +bytes`).Match(limits) {
		t.Errorf("limits of the confined program, want an address space of %s bytes:\n%s", as, limits)
	}
	if st.ThreadLimit && !regexp.MustCompile(`\nMax processes +256 +256 +processes`).Match(limits) {
		t.Errorf("limits of the confined program, want 256 processes:\n%s", limits)
	}
}

// group returns the processes in process group pgid, or with that pid.
func group(pgid int) []int {
	// A killed process needs a moment to die, more on a busy machine: what
	// is still there after two seconds (more as the load grows) has
	// survived.
	deadline := time.Now().Add(browsertest.Scale(2 * time.Second))
	for {
		pids := groupNow(pgid)
		if len(pids) == 0 || time.Now().After(deadline) {
			return pids
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// groupNow returns the live processes of the group pgid at this moment.
func groupNow(pgid int) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		// A zombie has ended; only its parent's wait is missing.
		state, pgrp, ok := procStat(e.Name())
		if !ok || ended(state) {
			continue
		}
		if pid, _ := strconv.Atoi(e.Name()); pgrp == pgid || pid == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitGone returns once no process of the group runs, not when its
// processes were only told to end: a shell that takes 300 ms to end after
// its signal is waited for.
func TestWaitGone(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("sh", "-c", `trap 'sleep 0.3; exit 0' TERM; echo > ready; while :; do sleep 0.05; done`)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Skip("no sh:", err)
	}
	pgid := cmd.Process.Pid
	defer func() {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		_ = cmd.Wait()
	}()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatal("the shell never started")
		}
	}
	if !groupRuns(pgid) {
		t.Fatal("groupRuns does not see the running shell")
	}
	if err := syscall.Kill(-pgid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitGone(pgid)
	if groupRuns(pgid) {
		t.Fatal("waitGone returned while a process of the group still ran")
	}
}

package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// run runs cmd and returns its combined output and exit error.
func run(t *testing.T, cmd *exec.Cmd) (string, error) {
	t.Helper()
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func TestLimitedMemory(t *testing.T) {
	ctx := context.Background()
	out, err := run(t, Command(ctx, Policy{Launcher: tiny, Memory: 64 << 20}, fixture, "alloc", strconv.Itoa(1<<30)))
	if err == nil || strings.Contains(out, "allocated") {
		t.Fatalf("1 GiB under a 64 MiB limit: %v\n%s", err, out)
	}
	// The same program within its limit.
	out, err = run(t, Command(ctx, Policy{Launcher: tiny, Memory: 64 << 20}, fixture, "alloc", strconv.Itoa(8<<20)))
	if err != nil || !strings.Contains(out, "allocated") {
		t.Fatalf("8 MiB under a 64 MiB limit: %v\n%s", err, out)
	}
}

func TestLimitedFileSize(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big")
	out, err := run(t, Command(context.Background(), Policy{Launcher: tiny, FileSize: 1 << 20}, fixture, "write", name, strconv.Itoa(4<<20)))
	if err == nil {
		t.Fatalf("4 MiB under a 1 MiB limit: written\n%s", out)
	}
	if fi, err := os.Stat(name); err == nil && fi.Size() > 1<<20 {
		t.Fatalf("the file has %d bytes", fi.Size())
	}
}

func TestLimitedCPU(t *testing.T) {
	start := time.Now()
	// The context is only a safety net; the CPU limit must come first.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := run(t, Command(ctx, Policy{Launcher: tiny, CPU: time.Second, Confine: true}, fixture, "spin"))
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("a busy loop under 1 s of CPU: %v", err)
	}
	// Far above 1 s, so that a loaded machine does not fail it, far below
	// the safety net.
	if d := time.Since(start); d > time.Minute {
		t.Fatalf("killed after %v", d)
	}
}

// The build is limited, not confined: the go command must start its
// compiler and write its files.
func TestLimitedStartsPrograms(t *testing.T) {
	out, err := run(t, Command(context.Background(), Policy{Launcher: tiny, Memory: 1 << 30, FileSize: 64 << 20}, "sh", "-c", "echo $((6*7)) > "+t.TempDir()+"/x && echo ok"))
	if err != nil || out != "ok\n" {
		t.Fatalf("sh under Limited: %v\n%s", err, out)
	}
}

// The time limit holds although a descendant keeps the output pipe open.
func TestCancelEndsTheGroup(t *testing.T) {
	for _, confine := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		var cmd *exec.Cmd
		if confine {
			cmd = Command(ctx, Policy{Launcher: tiny, Confine: true}, fixture, "sleep")
		} else {
			cmd = Command(ctx, Policy{Launcher: tiny}, "sh", "-c", "sleep 60 & sleep 60; echo never")
		}
		start := time.Now()
		out, err := run(t, cmd)
		cancel()
		// The sleeps take 60 s; ending well before that is what counts.
		if err == nil || time.Since(start) > 30*time.Second {
			t.Errorf("confine=%v: ended after %v with %v\n%s", confine, time.Since(start), err, out)
		}
		if left := group(cmd.Process.Pid); len(left) > 0 {
			t.Errorf("confine=%v: processes left: %v", confine, left)
		}
	}
}

func TestLaunchFailure(t *testing.T) {
	out, err := run(t, Command(context.Background(), Policy{Launcher: tiny, Confine: true}, "/nonexistent/program"))
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != ExitLaunch || !strings.HasPrefix(out, "kurs sandbox:") {
		t.Fatalf("a missing program: %v\n%s", err, out)
	}
	cmd := Command(context.Background(), Policy{Launcher: tiny}, "kurs-no-such-program")
	if err := cmd.Start(); !errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("a name not in PATH: %v", err)
	}
}

// The program's environment is the caller's, without the launcher's spec.
func TestEnvironment(t *testing.T) {
	cmd := Command(context.Background(), Policy{Launcher: tiny}, "sh", "-c", "env; echo \"$0\"")
	cmd.Env = []string{"A=1"}
	out, err := run(t, cmd)
	if err != nil || strings.Contains(out, marker) || !strings.Contains(out, "A=1\n") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// BenchmarkStart measures the launcher's cost: the start and end of a
// program that does nothing, plainly, through the launcher program, and
// through the test binary as its own launcher (-self), as kurs is without
// the launcher program. bench/start compares them interleaved.
func BenchmarkStart(b *testing.B) {
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		cmd  func() *exec.Cmd
	}{
		{"plain", func() *exec.Cmd { return exec.Command(fixture, "exit") }},
		{"limited", func() *exec.Cmd { return Command(ctx, Policy{Launcher: tiny, Memory: 1 << 30}, fixture, "exit") }},
		{"confined", func() *exec.Cmd {
			return Command(ctx, Policy{Launcher: tiny, Confine: true, Memory: 1 << 30}, fixture, "exit")
		}},
		{"limited-self", func() *exec.Cmd { return Command(ctx, Policy{Memory: 1 << 30}, fixture, "exit") }},
		{"confined-self", func() *exec.Cmd { return Command(ctx, Policy{Confine: true, Memory: 1 << 30}, fixture, "exit") }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if out, err := bc.cmd().CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
			}
		})
	}
}

// A storm of threads ends at the thread limit, with the runtime's own
// message, while a program with a hundred threads runs. As root it runs
// also without namespaces, where uid 65534's count is the machine's.
func TestThreadStorm(t *testing.T) {
	st := Layers()
	if !st.ThreadLimit {
		t.Skipf("no thread limit here: %v", st)
	}
	variants := map[string]Status{"layers": st}
	if os.Geteuid() == 0 {
		variants["no namespaces"] = Status{ProcessGroup: true, Rlimits: true, NoNewPrivs: true,
			Seccomp: st.Seccomp, Landlock: st.Landlock, NoPrivileges: true, ThreadLimit: true}
	}
	for name, st := range variants {
		t.Run(name, func(t *testing.T) {
			most, out, err := threads(t, st, 100)
			if err != nil || most < 100 {
				t.Errorf("100 threads: at most %d seen, %v\n%s", most, err, out)
			}
			most, out, err = threads(t, st, 1000)
			t.Logf("1000 threads: at most %d seen, %v", most, err)
			if err == nil || most > DefaultThreads || !strings.Contains(out, "failed to create new OS thread") {
				t.Errorf("1000 threads: at most %d seen, %v\n%.2000s", most, err, out)
			}
		})
	}
}

// threads runs the fixture's thread storm of n confined under st, and
// returns the most threads seen in its status, its output and how it
// ended.
func threads(t *testing.T, st Status, n int) (int, string, error) {
	most, _, out, err := storm(t, fixture, 256<<20, st, nil, n)
	return most, out, err
}

// storm runs prog's thread storm of n confined under st (and as cred, if
// set) with the data limit memory, and returns the most threads and the
// peak resident memory (VmHWM) seen in its status, its output and how it
// ended.
func storm(t *testing.T, prog string, memory int64, st Status, cred *syscall.Credential, n int) (int, int64, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := command(ctx, Policy{Launcher: tiny, Confine: true, Memory: memory}, st, prog, []string{"threads", strconv.Itoa(n)})
	cmd.SysProcAttr.Credential = cred
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	most, peak := 0, int64(0)
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	for {
		select {
		case err := <-ended:
			return most, peak, out.String(), err
		case <-time.After(5 * time.Millisecond):
		}
		data, _ := os.ReadFile(status)
		if k := statusField(string(data), "Threads"); int(k) > most {
			most = int(k)
		}
		if kb := statusField(string(data), "VmHWM"); kb<<10 > peak {
			peak = kb << 10
		}
		if strings.Contains(out.String(), "threads started") {
			stdin.Close()
		}
	}
}

// statusField returns the number that a line of /proc/PID/status starts
// with (in kB for memory), or 0.
func statusField(status, name string) int64 {
	_, rest, ok := strings.Cut(status, "\n"+name+":")
	if !ok {
		return 0
	}
	line, _, _ := strings.Cut(rest, "\n")
	f := strings.Fields(line)
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.ParseInt(f[0], 10, 64)
	return n
}

// lockedBuffer is a buffer that a test may read while a command writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// The launcher that a policy names is the one that starts: here a script
// that notes its start and hands over to the launcher program, which
// ignores its argv[0] and confines the program as the test binary would.
func TestNamedLauncher(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "started")
	wrapper := filepath.Join(dir, "launcher")
	script := "#!/bin/sh\necho started >> " + log + "\nexec " + tiny + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	out, err := run(t, Command(ctx, Policy{Launcher: wrapper, Confine: true, Memory: 256 << 20}, fixture, "exit"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	done, err := RunPlan(ctx, Policy{Launcher: wrapper}, Plan{Dir: dir, Stages: [][]Step{{{Path: "/bin/sh", Args: []string{"-c", "echo planned"}}}}})
	if err != nil || len(done) != 1 || string(done[0][0].Output) != "planned\n" {
		t.Fatalf("plan: %v, %+v", err, done)
	}
	if got, _ := os.ReadFile(log); string(got) != "started\nstarted\n" {
		t.Errorf("the named launcher started %q, want twice", got)
	}
	if _, err := run(t, Command(ctx, Policy{Launcher: filepath.Join(dir, "missing")}, "/bin/true")); err == nil {
		t.Error("a missing launcher started a program")
	}
}

// TestMemoryPastTheLimit tries each way a compromised program has to hold
// read-write memory past its data limit: mappings without access made
// writable by mprotect once the address space is full (the kernel then
// skips mprotect's data check), a plain read-write mapping, a shared one,
// and a storm of threads, each with a stack of its own. Each is refused or
// cut short, and the program's peak resident memory, read from /proc,
// stays under the limit: as root with namespaces, as root without them (a
// container without user namespaces) and as an unprivileged user; for a Go
// program and for the same program built as the race detector's build is,
// linked with the C library.
func TestMemoryPastTheLimit(t *testing.T) {
	st := Layers()
	if !st.Seccomp {
		t.Skipf("no seccomp filter here: %v", st)
	}
	// The race detector's shadow memory counts towards the data limit:
	// its build gets kurs's default limit, which it needs to start.
	type program struct {
		path  string
		limit int64
	}
	programs := map[string]program{"go": {fixture, 256 << 20}}
	if race, err := raceFixture(); err != nil {
		t.Errorf("the race detector's build: %v", err)
	} else if race == "" {
		t.Log("no C compiler: the race detector's build is not tried")
	} else {
		programs["race"] = program{race, 512 << 20}
	}
	variants := map[string]struct {
		st   Status
		cred *syscall.Credential
	}{"layers": {st, nil}}
	if os.Geteuid() == 0 {
		variants["no namespaces"] = struct {
			st   Status
			cred *syscall.Credential
		}{Status{ProcessGroup: true, Rlimits: true, NoNewPrivs: true, Seccomp: true, Landlock: st.Landlock, NoPrivileges: true, ThreadLimit: true}, nil}
		variants["unprivileged"] = struct {
			st   Status
			cred *syscall.Credential
		}{st, &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	for prog, p := range programs {
		limit := p.limit
		for name, v := range variants {
			t.Run(prog+"/"+name, func(t *testing.T) {
				for _, way := range []string{"mprotect", "plain", "shared"} {
					peak, out := holdMemory(t, p.path, v.st, v.cred, way, int(3*limit))
					t.Logf("%s: %q, peak resident %d MiB", way, strings.TrimSpace(out), peak>>20)
					if !strings.Contains(out, way+" denied") {
						t.Errorf("%s: %d MiB read-write past a %d MiB limit: %s", way, 3*limit>>20, limit>>20, out)
					}
					if peak > limit {
						t.Errorf("%s: %d MiB resident under a %d MiB limit", way, peak>>20, limit>>20)
					}
				}
				// A storm of 1000 threads: with stacks of 8 MiB (the C
				// library's), 2 GiB read-write.
				most, peak, out, err := storm(t, p.path, limit, v.st, v.cred, 1000)
				t.Logf("threads: at most %d, peak resident %d MiB, %v", most, peak>>20, err)
				if err == nil || most >= 1000 || most > DefaultThreads && v.st.ThreadLimit {
					t.Errorf("1000 threads: at most %d seen, %v\n%.2000s", most, err, out)
				}
				if peak > limit {
					t.Errorf("threads: %d MiB resident under a %d MiB limit", peak>>20, limit>>20)
				}
			})
		}
	}
}

// raceFixture builds the compromised program as kurs builds the race
// detector's build of a learner's program (internal/build's raceFlags),
// with the guard that such a program imports, once, and returns its path;
// "" where there is no C compiler to link it.
var raceFixture = sync.OnceValues(func() (string, error) {
	if _, err := exec.LookPath("gcc"); err != nil {
		return "", nil
	}
	prog := fixture + "-race"
	if os.Getenv("KURS_SANDBOX_FIXTURES") != "" {
		if _, err := os.Stat(prog); err != nil {
			return "", nil // not built for this run as another user
		}
		return prog, nil
	}
	build := exec.Command("go", "build", "-trimpath", "-race", "-ldflags=-s -w -linkmode=external -extldflags=-static",
		"-o", prog, "./testdata/compromised")
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v\n%s", err, out)
	}
	return prog, nil
})

// holdMemory runs prog's memory attack one way, confined under st (and as
// cred, if set) with a data limit of a third of n, and returns its peak
// resident memory (VmHWM) and output.
func holdMemory(t *testing.T, prog string, st Status, cred *syscall.Credential, way string, n int) (int64, string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := command(ctx, Policy{Launcher: tiny, Confine: true, Memory: int64(n / 3)}, st, prog, []string{"memory", way, strconv.Itoa(n)})
	cmd.SysProcAttr.Credential = cred
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	defer func() {
		Kill(cmd)
		<-ended
	}()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	for !strings.Contains(out.String(), way+" ") {
		select {
		case err := <-ended:
			ended <- err
			t.Fatalf("%s: ended without an answer: %v\n%s", way, err, out.String())
		case <-ctx.Done():
			t.Fatalf("%s: no answer: %s", way, out.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	data, err := os.ReadFile(status)
	if err != nil {
		t.Fatal(err)
	}
	return statusField(string(data), "VmHWM") << 10, out.String()
}

package sandbox

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// run runs cmd and returns its combined output and exit error.
func run(t *testing.T, cmd *exec.Cmd) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func TestLimitedMemory(t *testing.T) {
	ctx := context.Background()
	out, err := run(t, Command(ctx, Policy{Memory: 64 << 20}, fixture, "alloc", strconv.Itoa(1<<30)))
	if err == nil || strings.Contains(out, "allocated") {
		t.Fatalf("1 GiB under a 64 MiB limit: %v\n%s", err, out)
	}
	// The same program within its limit.
	out, err = run(t, Command(ctx, Policy{Memory: 64 << 20}, fixture, "alloc", strconv.Itoa(8<<20)))
	if err != nil || !strings.Contains(out, "allocated") {
		t.Fatalf("8 MiB under a 64 MiB limit: %v\n%s", err, out)
	}
}

func TestLimitedFileSize(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big")
	out, err := run(t, Command(context.Background(), Policy{FileSize: 1 << 20}, fixture, "write", name, strconv.Itoa(4<<20)))
	if err == nil {
		t.Fatalf("4 MiB under a 1 MiB limit: written\n%s", out)
	}
	if fi, err := os.Stat(name); err == nil && fi.Size() > 1<<20 {
		t.Fatalf("the file has %d bytes", fi.Size())
	}
}

func TestLimitedCPU(t *testing.T) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := run(t, Command(ctx, Policy{CPU: time.Second, Confine: true}, fixture, "spin"))
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("a busy loop under 1 s of CPU: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("killed after %v", d)
	}
}

// The build is limited, not confined: the go command must start its
// compiler and write its files.
func TestLimitedStartsPrograms(t *testing.T) {
	out, err := run(t, Command(context.Background(), Policy{Memory: 1 << 30, FileSize: 64 << 20}, "sh", "-c", "echo $((6*7)) > "+t.TempDir()+"/x && echo ok"))
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
			cmd = Command(ctx, Policy{Confine: true}, fixture, "sleep")
		} else {
			cmd = Command(ctx, Policy{}, "sh", "-c", "sleep 60 & sleep 60; echo never")
		}
		start := time.Now()
		out, err := run(t, cmd)
		cancel()
		if err == nil || time.Since(start) > 3*time.Second {
			t.Errorf("confine=%v: ended after %v with %v\n%s", confine, time.Since(start), err, out)
		}
		if left := group(cmd.Process.Pid); len(left) > 0 {
			t.Errorf("confine=%v: processes left: %v", confine, left)
		}
	}
}

func TestLaunchFailure(t *testing.T) {
	out, err := run(t, Command(context.Background(), Policy{Confine: true}, "/nonexistent/program"))
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != ExitLaunch || !strings.HasPrefix(out, "kurs sandbox:") {
		t.Fatalf("a missing program: %v\n%s", err, out)
	}
	cmd := Command(context.Background(), Policy{}, "kurs-no-such-program")
	if err := cmd.Start(); !errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("a name not in PATH: %v", err)
	}
}

// The program's environment is the caller's, without the launcher's spec.
func TestEnvironment(t *testing.T) {
	cmd := Command(context.Background(), Policy{}, "sh", "-c", "env; echo \"$0\"")
	cmd.Env = []string{"A=1"}
	out, err := run(t, cmd)
	if err != nil || strings.Contains(out, marker) || !strings.Contains(out, "A=1\n") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// BenchmarkStart measures the launcher's cost: the start and end of a
// program that does nothing, plainly and through the launcher.
func BenchmarkStart(b *testing.B) {
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		cmd  func() *exec.Cmd
	}{
		{"plain", func() *exec.Cmd { return exec.Command(fixture, "exit") }},
		{"limited", func() *exec.Cmd { return Command(ctx, Policy{Memory: 1 << 30}, fixture, "exit") }},
		{"confined", func() *exec.Cmd { return Command(ctx, Policy{Confine: true, Memory: 1 << 30}, fixture, "exit") }},
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

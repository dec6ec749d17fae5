//go:build linux || darwin

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// init is the launcher: in a process that Command started, it applies the
// policy and executes the program, and never returns.
func init() {
	if len(os.Args) < 2 || os.Args[0] != marker {
		return
	}
	err := launch(os.Args[1], os.Args[2:])
	fmt.Fprintln(os.Stderr, "kurs sandbox:", err)
	os.Exit(ExitLaunch)
}

// launch decodes the spec and executes the program under it; it returns
// only on failure.
func launch(encoded string, argv []string) error {
	var sp spec
	if err := json.Unmarshal([]byte(encoded), &sp); err != nil {
		return fmt.Errorf("bad policy: %v", err)
	}
	// Confinement is applied to this thread alone and inherited by the
	// program that this thread executes.
	runtime.LockOSThread()
	if err := setLimits(sp.Policy); err != nil {
		return err
	}
	if sp.PlanOnStdin {
		// The programs inherit the limits; the launcher stays their
		// parent and reports what each did on its standard output. The
		// plan comes on standard input: as an argument, a long one would
		// pass the kernel's limit on one argument's length.
		var plan Plan
		if err := json.NewDecoder(os.Stdin).Decode(&plan); err != nil {
			return fmt.Errorf("bad plan: %v", err)
		}
		done := runStages(context.Background(), plan, func() *exec.Cmd {
			return &exec.Cmd{SysProcAttr: planChildAttr()}
		})
		if err := json.NewEncoder(os.Stdout).Encode(done); err != nil {
			return err
		}
		os.Exit(0)
	}
	return execute(&sp, argv, os.Environ())
}

// runPlan starts a launcher that runs the plan, and reads what it did.
func runPlan(ctx context.Context, p Policy, plan Plan) ([][]Done, error) {
	enc, err := json.Marshal(spec{Policy: p, PlanOnStdin: true})
	if err != nil {
		return nil, err
	}
	input, err := json.Marshal(plan)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self())
	cmd.Args = []string{marker, string(enc)}
	cmd.Stdin = bytes.NewReader(input)
	cmd.SysProcAttr = sysProcAttr(p, Layers())
	cmd.Cancel = func() error { return kill(cmd) }
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	Kill(cmd)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("plan: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	var done [][]Done
	if err := json.Unmarshal(out, &done); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	return done, nil
}

// setLimits sets the process's resource limits, soft and hard alike so that
// the program cannot raise them again. p.AddressSpace and p.Threads are
// those of the spec: command sets them only where they hold (RLIMIT_NPROC
// counts every thread of a user id in a user namespace, so it is set only
// where the program has an id or a namespace of its own).
func setLimits(p Policy) error {
	type limit struct {
		resource int
		value    uint64
		name     string
	}
	limits := []limit{{syscall.RLIMIT_CORE, 0, "RLIMIT_CORE"}}
	add := func(resource int, value int64, name string) {
		if value > 0 {
			limits = append(limits, limit{resource, uint64(value), name})
		}
	}
	add(syscall.RLIMIT_DATA, p.Memory, "RLIMIT_DATA")
	add(syscall.RLIMIT_CPU, int64((p.CPU+time.Second-1)/time.Second), "RLIMIT_CPU")
	add(syscall.RLIMIT_FSIZE, p.FileSize, "RLIMIT_FSIZE")
	files := p.Files
	if files == 0 && p.Confine {
		files = 64
	}
	add(syscall.RLIMIT_NOFILE, int64(files), "RLIMIT_NOFILE")
	add(syscall.RLIMIT_AS, p.AddressSpace, "RLIMIT_AS")
	add(unix.RLIMIT_NPROC, int64(p.Threads), "RLIMIT_NPROC")
	if p.Confine {
		// An unlimited stack switches the kernel to the legacy memory
		// layout; the Go runtime needs little of the main thread's stack.
		add(syscall.RLIMIT_STACK, 8<<20, "RLIMIT_STACK")
	}
	for _, l := range limits {
		lim := syscall.Rlimit{Cur: l.value, Max: l.value}
		var old syscall.Rlimit
		if syscall.Getrlimit(l.resource, &old) == nil && old.Max < l.value {
			// Never ask for more than the hard limit already allows.
			lim = syscall.Rlimit{Cur: old.Max, Max: old.Max}
		}
		if err := syscall.Setrlimit(l.resource, &lim); err != nil {
			return fmt.Errorf("%s: %v", l.name, err)
		}
	}
	return nil
}

// command builds the launcher's command for the layers in st.
func command(ctx context.Context, p Policy, st Status, name string, args []string) *exec.Cmd {
	sp := spec{Policy: p}
	path, lookErr := name, error(nil)
	if !strings.Contains(name, "/") {
		path, lookErr = exec.LookPath(name)
	}
	sp.Path = path
	sp.AddressSpace, sp.Threads = 0, 0
	if p.Confine {
		confine(&sp, st)
	}
	enc, err := json.Marshal(sp)
	if err != nil {
		panic(err) // a spec always encodes
	}
	cmd := exec.CommandContext(ctx, self())
	cmd.Args = append([]string{marker, string(enc), name}, args...)
	if lookErr != nil {
		cmd.Err = lookErr
	}
	cmd.SysProcAttr = sysProcAttr(p, st)
	cmd.Cancel = func() error { return kill(cmd) }
	cmd.WaitDelay = time.Second
	return cmd
}

// kill ends the process group, then the process (which, first in its pid
// namespace, takes the namespace with it).
func kill(cmd *exec.Cmd) error {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return cmd.Process.Kill()
}

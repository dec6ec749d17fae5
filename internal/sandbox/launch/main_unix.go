//go:build linux || darwin

package launch

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// Main is a launcher: args are its arguments after argv[0], the encoded
// Spec and then the program's argv. It applies the spec and executes the
// program, or runs the plan on standard input; it never returns.
func Main(args []string) {
	err := fmt.Errorf("no spec")
	if len(args) > 0 {
		err = launch(args[0], args[1:])
	}
	fmt.Fprintln(os.Stderr, "kurs sandbox:", err)
	os.Exit(ExitLaunch)
}

// launch decodes the spec and executes the program under it; it returns
// only on failure.
func launch(encoded string, argv []string) error {
	var sp Spec
	if err := json.Unmarshal([]byte(encoded), &sp); err != nil {
		return fmt.Errorf("bad policy: %v", err)
	}
	// Confinement is applied to this thread alone and inherited by the
	// program that this thread executes.
	runtime.LockOSThread()
	if err := setLimits(&sp); err != nil {
		return err
	}
	if sp.PlanOnStdin {
		// The programs inherit the limits; the launcher stays their
		// parent and reports what each did on its standard output. The
		// plans come on standard input (as an argument, a long one would
		// pass the kernel's limit on one argument's length), one after
		// another until it ends: a build that decides its next plan from
		// what the last one made pays for one launcher, not one a plan.
		in, out := json.NewDecoder(os.Stdin), json.NewEncoder(os.Stdout)
		for {
			var plan Plan
			if err := in.Decode(&plan); err == io.EOF {
				os.Exit(0)
			} else if err != nil {
				return fmt.Errorf("bad plan: %v", err)
			}
			done := RunStages(context.Background(), plan, func() *exec.Cmd {
				return &exec.Cmd{SysProcAttr: planChildAttr()}
			})
			if err := out.Encode(done); err != nil {
				return err
			}
		}
	}
	if len(argv) == 0 {
		return fmt.Errorf("no program")
	}
	return execute(&sp, argv, os.Environ())
}

// setLimits sets the process's resource limits, soft and hard alike so that
// the program cannot raise them again. sp.AddressSpace and sp.Threads are
// set by package sandbox only where they hold (RLIMIT_NPROC counts every
// thread of a user id in a user namespace, so it is set only where the
// program has an id or a namespace of its own).
func setLimits(sp *Spec) error {
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
	add(syscall.RLIMIT_DATA, sp.Memory, "RLIMIT_DATA")
	add(syscall.RLIMIT_CPU, int64((sp.CPU+time.Second-1)/time.Second), "RLIMIT_CPU")
	add(syscall.RLIMIT_FSIZE, sp.FileSize, "RLIMIT_FSIZE")
	files := sp.Files
	if files == 0 && sp.Confine {
		files = 64
	}
	add(syscall.RLIMIT_NOFILE, int64(files), "RLIMIT_NOFILE")
	add(syscall.RLIMIT_AS, sp.AddressSpace, "RLIMIT_AS")
	add(rlimitNPROC, int64(sp.Threads), "RLIMIT_NPROC")
	if sp.Confine {
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

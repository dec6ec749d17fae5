// Package launch is the launcher side of package sandbox: the code that
// runs between the start of a child and the execution of its program. It
// applies a Spec (resource limits and, on Linux, the confinement of a
// learner's program) to the process it runs in and executes the program,
// or runs a Plan of programs under the limits and reports what each did.
//
// It imports nothing but the standard library, so that its sources, which
// package sandbox embeds, build into a small static launcher program that
// starts about as fast as any static Go binary (see the program in the
// folder launcher). Every binary that links package sandbox also runs this
// code when started as a launcher; both run the same rules.
package launch

import (
	"bytes"
	"cmp"
	"context"
	"os/exec"
	"runtime"
	"sync"
	"time"
)

// Marker is a launcher's argv[0]. A binary that links package sandbox
// becomes a launcher when started with it; the launcher program ignores
// its argv[0].
const Marker = "kurs-sandbox-launcher"

// ExitLaunch is the exit status of a launcher that could not start the
// program under its spec. It then says why on its standard error,
// prefixed "kurs sandbox:".
const ExitLaunch = 126

// Spec is what a launcher receives, JSON-encoded, as its first argument,
// followed by the program's argv.
type Spec struct {
	// Confine applies the confinement of a learner's program: the
	// filters below, no_new_privs, no capability.
	Confine bool `json:",omitempty"`
	// Resource limits, soft and hard alike; 0 leaves one as inherited
	// (but see Files).
	Memory       int64         `json:",omitempty"` // RLIMIT_DATA
	AddressSpace int64         `json:",omitempty"` // RLIMIT_AS
	Threads      int           `json:",omitempty"` // RLIMIT_NPROC
	CPU          time.Duration `json:",omitempty"` // RLIMIT_CPU, rounded up to seconds
	FileSize     int64         `json:",omitempty"` // RLIMIT_FSIZE
	// Files is RLIMIT_NOFILE; 0 means 64 for a confined program.
	Files int `json:",omitempty"`

	Path     string `json:",omitempty"` // the program to execute
	Seccomp  bool   `json:",omitempty"` // apply the seccomp filter
	Landlock int    `json:",omitempty"` // apply Landlock at this ABI
	// PlanOnStdin: run the Plans on standard input instead of Path, one
	// after another until the input ends, and write what the programs of
	// each did to standard output, one JSON value a plan.
	PlanOnStdin bool `json:",omitempty"`
	// Uid and Gid: the ids a confined program runs as if the launcher
	// is root; 0 keeps the launcher's.
	Uid int `json:",omitempty"`
	Gid int `json:",omitempty"`
}

// A Plan is several programs to run under one Spec, stage by stage: the
// programs of a stage run at the same time, and a stage in which any
// program fails is the last. One launcher runs the whole plan and its
// programs inherit its limits, so a build of many compiler runs pays for
// one launcher, not one each. A plan's spec cannot confine: confinement
// forbids starting programs.
type Plan struct {
	Dir    string   // the folder every program runs in
	Env    []string // every program's environment
	Stages [][]Step
	// Parallel bounds how many programs of a stage run at once, each
	// with the spec's memory; 0 means the number of processors.
	Parallel int
}

// Step is one program of a Plan.
type Step struct {
	Path string   // the program, an absolute path
	Args []string // its arguments, without the program's name
	Env  []string // added to the plan's environment
}

// Done is what one program of a Plan did.
type Done struct {
	Output []byte // its standard output and error, cut at MaxPlanOutput
	OK     bool   // it ran and exited with status 0
	Status string // otherwise why not: "exit status 2", "signal: killed", or why it could not start
}

// MaxPlanOutput bounds the output kept of each program of a plan.
const MaxPlanOutput = 1 << 20

// RunStages runs the stages of plan in this process and returns what each
// program did; the stages after a failed one are missing. newCmd returns
// the command for one program, before its path, arguments, folder,
// environment and output are set. A launcher calls it with its limits set.
func RunStages(ctx context.Context, plan Plan, newCmd func() *exec.Cmd) [][]Done {
	var out [][]Done
	slots := make(chan struct{}, cmp.Or(plan.Parallel, runtime.NumCPU()))
	for _, stage := range plan.Stages {
		done := make([]Done, len(stage))
		var wg sync.WaitGroup
		for i, st := range stage {
			wg.Add(1)
			go func() {
				defer wg.Done()
				slots <- struct{}{}
				defer func() { <-slots }()
				cmd := newCmd()
				cmd.Err = nil // the path is set here, not looked up
				cmd.Path = st.Path
				cmd.Args = append([]string{st.Path}, st.Args...)
				cmd.Dir = plan.Dir
				cmd.Env = append(append([]string(nil), plan.Env...), st.Env...)
				var b cappedBuffer
				cmd.Stdout, cmd.Stderr = &b, &b
				err := cmd.Run()
				done[i] = Done{Output: b.b.Bytes(), OK: err == nil}
				if err != nil {
					done[i].Status = err.Error()
				}
			}()
		}
		wg.Wait()
		out = append(out, done)
		for _, d := range done {
			if !d.OK {
				return out
			}
		}
		if ctx.Err() != nil {
			return out
		}
	}
	return out
}

// cappedBuffer keeps the first MaxPlanOutput bytes written to it. It is a
// program's standard output and error at once, which os/exec writes from
// one goroutine at a time.
type cappedBuffer struct{ b bytes.Buffer }

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := MaxPlanOutput - c.b.Len(); room > 0 {
		c.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

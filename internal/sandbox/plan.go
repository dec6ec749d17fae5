package sandbox

import (
	"bytes"
	"cmp"
	"context"
	"os/exec"
	"runtime"
	"sync"
)

// A Plan is several programs to run under one Policy, stage by stage: the
// programs of a stage run at the same time, and a stage in which any
// program fails is the last. One launcher runs the whole plan and its
// programs inherit its limits, so a build of many compiler runs pays for
// one launcher, not one each. A plan's policy cannot confine: confinement
// forbids starting programs.
type Plan struct {
	Dir    string   // the folder every program runs in
	Env    []string // every program's environment
	Stages [][]Step
	// Parallel bounds how many programs of a stage run at once, each
	// with the policy's memory; 0 means the number of processors.
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

// RunPlan runs plan under p and returns what each program did, stage by
// stage; the stages after a failed one are missing. Cancelling ctx ends
// every program of the plan; the error is then ctx's.
func RunPlan(ctx context.Context, p Policy, plan Plan) ([][]Done, error) {
	p.Confine = false
	return runPlan(ctx, p, plan)
}

// runStages runs the stages of plan here, in this process, and returns
// what each program did. A launcher calls it with its limits set.
func runStages(ctx context.Context, plan Plan, attr func() *exec.Cmd) [][]Done {
	var out [][]Done
	slots := make(chan struct{}, cmp.Or(plan.Parallel, runtime.NumCPU()))
	for _, stage := range plan.Stages {
		done := make([]Done, len(stage))
		var wg sync.WaitGroup
		for i, st := range stage {
			wg.Go(func() {
				slots <- struct{}{}
				defer func() { <-slots }()
				cmd := attr()
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
			})
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

package sandbox

import (
	"context"

	"github.com/kurs-course/kurs/internal/sandbox/launch"
)

// A Plan is several programs to run under one Policy, stage by stage: the
// programs of a stage run at the same time, and a stage in which any
// program fails is the last. One launcher runs the whole plan and its
// programs inherit its limits, so a build of many compiler runs pays for
// one launcher, not one each. A plan's policy cannot confine: confinement
// forbids starting programs.
type Plan = launch.Plan

// Step is one program of a Plan.
type Step = launch.Step

// Done is what one program of a Plan did.
type Done = launch.Done

// MaxPlanOutput bounds the output kept of each program of a plan.
const MaxPlanOutput = launch.MaxPlanOutput

// RunPlan runs plan under p and returns what each program did, stage by
// stage; the stages after a failed one are missing. Cancelling ctx ends
// every program of the plan; the error is then ctx's.
func RunPlan(ctx context.Context, p Policy, plan Plan) ([][]Done, error) {
	ps := StartPlans(ctx, p)
	defer ps.Close()
	return ps.Run(plan)
}

// Plans runs plans under one Policy, one after another, in one launcher:
// a build whose next plan depends on what the last one made (the linker
// runs once the compiler's output is known) starts one launcher, and
// starts it before its first plan is ready. Close ends it.
type Plans struct {
	ctx context.Context
	p   Policy
	s   *planSession
	err error // why no more plans run
}

// StartPlans starts a launcher for plans under p, which cannot confine
// (confinement forbids starting programs). Cancelling ctx ends it and
// every program of its plans.
func StartPlans(ctx context.Context, p Policy) *Plans {
	p.Confine = false
	// A plan is not confined and needs no layers; the program it builds
	// usually runs confined next, so they are measured meanwhile.
	go Layers()
	ps := &Plans{ctx: ctx, p: p}
	ps.s, ps.err = startPlans(ctx, p)
	return ps
}

// Run runs plan and returns what each program did, as RunPlan does. Once
// a plan got no answer (ctx ended, the launcher died), no more run.
func (ps *Plans) Run(plan Plan) ([][]Done, error) {
	if ps.err != nil {
		return nil, ps.err
	}
	done, err := ps.s.run(ps.ctx, plan)
	if err != nil {
		ps.err = err
	}
	return done, err
}

// Close ends the launcher and waits for it.
func (ps *Plans) Close() {
	if ps.s != nil {
		ps.s.close()
	}
}

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
	p.Confine = false
	// A plan is not confined and needs no layers; the program it builds
	// usually runs confined next, so they are measured meanwhile.
	go Layers()
	return runPlan(ctx, p, plan)
}

package validate

import "sync"

// Phase is a part of a validation that runs code: each takes a while, from
// seconds for the checks of a small course to minutes for the mutants of
// the built-in one.
type Phase string

// Phases, in the order they run.
const (
	PhaseChecks         Phase = "checks"         // references, skeletons and replays of traces
	PhaseMisconceptions Phase = "misconceptions" // misconceptions against the hidden tests
	PhaseMutants        Phase = "mutants"        // mutants of the references, with Options.Mutants
)

// Progress is how far a phase of a validation is, for an author who waits
// for it. A phase reports once as it starts, with Exercise empty and Runs
// the runs of code it has ahead, then once per exercise whose runs have
// all ended.
type Progress struct {
	Phase    Phase
	Exercise string
	// Done is how many of the phase's Total exercises have ended.
	Done, Total int
	// Runs is how many builds and runs of code the exercise took in the
	// phase (at the start: the phase's).
	Runs int
	// Mutants and Invalid are, in PhaseMutants, how many of the
	// exercise's mutants compiled and ran against its hidden tests, and
	// how many more changes to its reference solution do not compile,
	// counted as its MutantSummary counts them, so that what the author
	// reads while waiting agrees with the summary at the end. Which
	// changes compile is known only as their runs end: the start of
	// PhaseMutants counts its Total exercises, not mutants.
	Mutants, Invalid int
}

// tracker counts the runs of a phase that are left per exercise and
// reports each exercise when its last one ends. Runs end on several
// goroutines; the reports come one at a time.
type tracker struct {
	mu    sync.Mutex
	f     func(Progress)
	phase Phase
	left  map[*exCode]int
	runs  map[*exCode]int
	done  int
	// mutants and invalid count, in PhaseMutants, the runs of mutants
	// that compiled and the changes that did not.
	mutants, invalid map[*exCode]int
}

// track starts phase with the exercise of each run ahead, reporting to
// Options.Progress (nothing when it is nil).
func (v *validator) track(phase Phase, runs []*exCode) *tracker {
	t := &tracker{f: v.opts.Progress, phase: phase, left: map[*exCode]int{}, runs: map[*exCode]int{},
		mutants: map[*exCode]int{}, invalid: map[*exCode]int{}}
	for _, e := range runs {
		t.left[e]++
		t.runs[e]++
	}
	if t.f != nil && len(runs) > 0 {
		t.f(Progress{Phase: phase, Total: len(t.left), Runs: len(runs)})
	}
	return t
}

// ran records that one run of e has ended.
func (t *tracker) ran(e *exCode) {
	if t.f == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.left[e] == 0 {
		return
	}
	t.left[e]--
	if t.left[e] == 0 {
		t.done++
		t.f(Progress{Phase: t.phase, Exercise: e.ex.ID, Done: t.done, Total: len(t.left), Runs: t.runs[e],
			Mutants: t.mutants[e], Invalid: t.invalid[e]})
	}
}

// invalidBefore records that n changes to e's reference were made but
// rejected before any run, as not type-checking; it is called before
// e's runs start.
func (t *tracker) invalidBefore(e *exCode, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.invalid[e] += n
}

// ranMutant records that the run of one of e's mutants has ended;
// compiled, whether the mutant compiled and so ran against the tests.
func (t *tracker) ranMutant(e *exCode, compiled bool) {
	t.mu.Lock()
	if compiled {
		t.mutants[e]++
	} else {
		t.invalid[e]++
	}
	t.mu.Unlock()
	t.ran(e)
}

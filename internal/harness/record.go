// Package harness runs an exercise's hidden tests in two programs built
// from the same driver: the learner's program, which runs the learner's
// code and only answers what it did, and the judge, which holds the
// reference, asks the learner's program for whole traces of calls,
// replays them on the reference and decides. No verdict is made where
// learner code runs, so a learner's program that breaks Go's memory
// safety can lie only about its own behaviour.
//
// The package uses only the standard library: its source is copied into the
// temporary modules of every check, which are built offline. It does not
// decide what a result means for the learner; the checker does.
package harness

// Module is the module path under which kurs builds every test program:
// its own, so the harness compiles unchanged in kurs and in every check.
// Frames in panics and crash reports start with it.
const Module = "github.com/kurs-course/kurs"

// Suite is the list of hidden tests of one exercise, as stored in the
// exercise's tests/suite.json.
type Suite struct {
	Tests []Test `json:"tests"`
}

// Test is one hidden test: a fixed trace, a number of random traces compared
// against the reference, or a quiz case.
type Test struct {
	Name   string    `json:"name"`
	Points int       `json:"points,omitempty"`
	New    []float64 `json:"new,omitempty"`
	Steps  []Step    `json:"steps,omitempty"`
	Random int       `json:"random,omitempty"`
	Case   int       `json:"case,omitempty"`
}

// Step is one call in a trace. Want and Obs, when set, are the expected
// return value and observation after the call; when empty, the reference
// solution decides.
type Step struct {
	Call string    `json:"call"`
	Args []float64 `json:"args,omitempty"`
	Want string    `json:"want,omitempty"`
	Obs  string    `json:"obs,omitempty"`
}

// Trace is a sequence of calls on one value made by New(args...).
type Trace struct {
	New   []float64 `json:"new"`
	Steps []Step    `json:"steps"`
}

// Record is one message from the judge to the checker.
type Record struct {
	Kind    string   `json:"kind"` // "start", "result" or "done"
	Test    string   `json:"test,omitempty"`
	Status  string   `json:"status,omitempty"` // "pass" or "fail"
	Failure *Failure `json:"failure,omitempty"`
}

// Failure kinds.
const (
	Mismatch = "mismatch" // a call returned or left something other than expected
	Panicked = "panic"    // learner code panicked
	Timeout  = "timeout"  // the test did not finish in time
	Quiz     = "quiz"     // a wrong quiz answer
)

// Failure describes where a test departed from the expected behaviour.
type Failure struct {
	Kind string `json:"kind"`
	// Pass marks a note on a passed test (a right quiz answer) rather
	// than a failure.
	Pass bool `json:"pass,omitempty"`
	// New are the constructor arguments of the trace.
	New []float64 `json:"new,omitempty"`
	// Init is what was observed right after New, as the learner's code
	// showed it, when the failure is at a later step.
	Init *Result `json:"init,omitempty"`
	// Done are the steps before the failing one, as the learner's code ran them.
	Done []Done `json:"done,omitempty"`
	// Step is the 1-based number of the failing step; 0 means the constructor.
	Step int    `json:"step"`
	Call string `json:"call,omitempty"`
	// Observe names what is looked at after each call, e.g. "State()".
	Observe string `json:"observe,omitempty"`
	Want    Result `json:"want"`
	Got     Result `json:"got"`
	// Panic is the panic value and Frame the learner's source position.
	Panic string `json:"panic,omitempty"`
	Frame string `json:"frame,omitempty"`
	// Seed and Index identify a random trace; Original is its length before
	// shrinking.
	Seed     uint64 `json:"seed,omitempty"`
	Index    int    `json:"index,omitempty"`
	Original int    `json:"original,omitempty"`
	// Case and Given describe a wrong quiz answer: Given is the answer as
	// the learner wrote it, without the space around it, whatever its
	// case (Answer normalizes it for comparing).
	Case  int    `json:"case,omitempty"`
	Given string `json:"given,omitempty"`
}

// Done is one step that ran before a failure.
type Done struct {
	Call string `json:"call"`
	Got  Result `json:"got"`
}

// Result is what one call returned (Ret, empty for methods without a
// result) and what was observed afterwards (Obs).
type Result struct {
	Ret string `json:"ret,omitempty"`
	Obs string `json:"obs,omitempty"`
}

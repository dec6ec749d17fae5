package checker

import (
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/harness"
)

// Status is the outcome of an exercise or a test.
type Status string

// Statuses, as in the result schema.
const (
	Pass  Status = "pass"
	Fail  Status = "fail"
	Error Status = "error" // no test could run
)

// Result is the outcome of checking one exercise.
type Result struct {
	Exercise string
	Status   Status
	Score    int
	MaxScore int
	// Problem says why no test could run, when Status is Error.
	Problem *Problem
	Tests   []Test
	// Output is what the learner's code printed, cut at the output cap.
	Output    string
	Truncated bool
	// Killed reports that the test program had to be killed at the time
	// limit; Crash holds the runtime's last words when it died by itself.
	Killed   bool
	Crash    string
	Seed     uint64
	Duration time.Duration
	// Concurrency says how the stress tests of an exercise used from
	// several goroutines ran: ConcurrencyRace or ConcurrencyStress; ""
	// for other exercises, and when no test could run.
	Concurrency string
	// RaceSkipped says why the race detector did not run when
	// Concurrency is ConcurrencyStress: RaceSkippedFailing, …NoCC,
	// …Platform, …Build or …Limit.
	RaceSkipped string
	// Races are the data races the race detector reported in the
	// learner's program, in the order it reported them, whenever its run
	// found one: also when the stress tests failed without it. The
	// detector's own report, cut to the learner's and the test program's
	// frames, is in Output. Nil when the detector did not run or found
	// no race.
	Races []Race `json:",omitempty"`
}

// Race is one data race the race detector reported: two accesses to the
// same memory from two goroutines, at least one a write, with no
// synchronisation between them.
type Race struct {
	// Accesses are the access the detector caught, then the earlier one
	// it conflicts with ("Previous write at").
	Accesses []RaceAccess
}

// RaceAccess is one access of a data race.
type RaceAccess struct {
	// Write says the access wrote; else it read.
	Write bool
	// Frames are the learner's frames of the access's stack, innermost
	// first: the learner's function that touched the memory, then the
	// learner's functions that called it. Empty when the access was made
	// outside the learner's code (in the test program).
	Frames []RaceFrame
}

// RaceFrame is a frame of the learner's code in a race report.
type RaceFrame struct {
	// Function is the function as the runtime names it, without its
	// package: "(*Pool).InUse" for a method, "New.func1" for a closure.
	Function string
	// File is relative to the workspace, slash-separated; Line is
	// 1-based.
	File string
	Line int
}

// Functions returns the learner's functions that made the race's
// accesses, one per access that has a frame in the learner's code, in
// the order of Accesses: what races with what.
func (r Race) Functions() []string {
	var fns []string
	for _, a := range r.Accesses {
		if len(a.Frames) > 0 {
			fns = append(fns, a.Frames[0].Function)
		}
	}
	return fns
}

// Test is the outcome of one hidden test.
type Test struct {
	Name   string
	Status Status
	// Failure is where the learner's code departed, or nil when the test
	// sent no result (see Missing).
	Failure *harness.Failure
	// Note says more about a passed test, e.g. which quiz option was
	// chosen.
	Note *harness.Failure
	// Missing reports that the test program ended before reporting this
	// test; Crashed, that it ended while this test was running.
	Missing bool
	Crashed bool
}

// FirstFailure returns the first failed test, or nil.
func (r *Result) FirstFailure() *Test {
	for i := range r.Tests {
		if r.Tests[i].Status != Pass {
			return &r.Tests[i]
		}
	}
	return nil
}

// ProblemKind says why an exercise could not be tested.
type ProblemKind string

// Kinds of problems.
const (
	ProblemNoFiles      ProblemKind = "no_files"      // no .go file in the folder
	ProblemReservedName ProblemKind = "reserved_name" // a file named like kurs's own
	ProblemTooLarge     ProblemKind = "too_large"     // a file over the size limit
	ProblemTooMany      ProblemKind = "too_many"      // more files than a solution needs
	ProblemNotUTF8      ProblemKind = "not_utf8"      // a file that is not UTF-8
	ProblemPackage      ProblemKind = "package"       // wrong package name
	ProblemImport       ProblemKind = "import"        // an import outside the allowlist
	ProblemDirective    ProblemKind = "directive"     // //go:linkname and the like
	ProblemCompile      ProblemKind = "compile"       // the code does not build
	ProblemAPI          ProblemKind = "api"           // builds, but not with the exercise's API
	ProblemCrash        ProblemKind = "crash"         // the program died before the first test
	ProblemTimeout      ProblemKind = "timeout"       // killed before the first test
	ProblemBuildLimit   ProblemKind = "build_limit"   // the build took too long or too much memory or disk
	ProblemInternal     ProblemKind = "internal"      // kurs itself failed (no go, no disk)
)

// Problem says why an exercise could not be tested, with the position in
// the learner's files where there is one.
type Problem struct {
	Kind ProblemKind
	File string // relative to the workspace, slash-separated
	Line int
	// Detail is the import path, package name, compiler output or error.
	Detail string
	// Allowed lists the exercise's allowed imports, for a refused one.
	Allowed []string
	// Declared lists the names the learner's package declares ("New",
	// "Pool.Do" for a method) when the API check failed, so that the
	// message can name a near miss of a missing name.
	Declared []string
	// DeclaredAt says where each of Declared is declared: "FILE.go:LINE",
	// relative to the workspace, slash-separated.
	DeclaredAt map[string]string
	// Excluded lists the learner's files that the build left out (a
	// //go:build line or the file's name excludes them on this computer):
	// their names are not declared. NoneBuilt says that it left out every
	// file.
	Excluded  []ExcludedFile `json:",omitempty"`
	NoneBuilt bool           `json:",omitempty"`
}

// An ExcludedFile is a learner's file that the build left out.
type ExcludedFile struct {
	File string // relative to the workspace, slash-separated
	// Constraint is the file's //go:build (or // +build) line, as the
	// learner wrote it, at most 200 bytes; empty when the file's name
	// excludes it (x_windows.go).
	Constraint string `json:",omitempty"`
}

// Reaches reports whether the package at an import path could reach past
// the learner's own code: files, processes, the network, memory outside the
// type system, or the test program itself. Such imports are refused in
// every exercise; others are refused only because an exercise does not
// need them.
func Reaches(path string) bool {
	for _, p := range []string{"os", "syscall", "unsafe", "net", "reflect", "runtime", "embed", "C",
		"plugin", "debug", "io/ioutil", "io/fs", "path/filepath", "log", "testing", "internal", "crypto/rand", "expvar"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	// Anything outside the standard library, kurs's own packages included.
	first, _, _ := strings.Cut(path, "/")
	return strings.Contains(first, ".")
}

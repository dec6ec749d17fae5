// Package validate checks a course the way its author needs: every problem
// at once, each with the file and line to fix. It reads lessons and
// exercises from any fs.FS, runs the reference solution and the skeletons
// through the real checker, replays the traces that lesson tables are tied
// to, and, when asked, measures the hidden tests with mutants of the
// reference solution (see the mutate package).
//
// It reports problems as data (a Kind and its arguments); the cli package
// turns them into text in the author's language. It never changes the
// course.
package validate

import (
	"cmp"
	"context"
	"io/fs"
	"maps"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
)

// Kind says what is wrong; the message "validate.problem_KIND" of the
// i18n catalogs explains it, filled in from Problem.Args.
type Kind string

// Kinds of problems. The comments say where each is reported.
const (
	JSON             Kind = "json"               // a JSON file that does not parse, at the mistake
	UnknownKey       Kind = "unknown_key"        // a key a metadata file's schema does not have
	WrongType        Kind = "wrong_type"         // a value of the wrong JSON type
	WrongValue       Kind = "wrong_value"        // a value its key does not take
	ExerciseKind     Kind = "kind"               // an exercise without a known kind
	ListedTwice      Kind = "listed_twice"       // two lessons list one exercise
	Markdown         Kind = "markdown"           // a hints or quiz file not laid out as it must be
	TaskMissing      Kind = "task_missing"       // no task.LANG.md
	Obsolete         Kind = "obsolete"           // a file the exercise's kind does not use
	QuizMarker       Kind = "quiz_marker"        // a quiz's task without the line where its cases go
	QuizCases        Kind = "quiz_cases"         // a quiz without cases
	QuizAnswers      Kind = "quiz_answers"       // fewer answers than cases
	QuizAnswersExtra Kind = "quiz_answers_extra" // more answers than cases
	QuizAnswer       Kind = "quiz_answer"        // an answer that is not one of the case's options
	QuizPoints       Kind = "quiz_points"        // a quiz whose points differ from its number of cases
	QuizQuestion     Kind = "quiz_question"      // a case without its question in a language
	QuizOption       Kind = "quiz_option"        // an option without its text in a language
	QuizWhy          Kind = "quiz_why"           // an option without its explanation in a language
	MissingFile      Kind = "missing_file"       // a file every lesson or exercise needs
	IDMismatch       Kind = "id_mismatch"        // id differs from the folder, at "id"
	IDInvalid        Kind = "id_invalid"         // an exercise id that is no Go package name
	Load             Kind = "load"               // anything else the course loader refuses
	NoExercises      Kind = "no_exercises"       // a course without exercises
	LessonText       Kind = "lesson_text"        // a lesson without the Markdown file of a language
	TextMissing      Kind = "text_missing"       // a title without a language
	TestTitle        Kind = "test_title"         // a hidden test without a title in a language
	TestTitleLong    Kind = "test_title_long"    // a hidden test's title too long for one line
	HintsMissing     Kind = "hints_missing"      // no hints in a language
	HintsCount       Kind = "hints_count"        // a different number of hints in the two languages
	SkeletonMissing  Kind = "skeleton_missing"   // no skeleton in a language
	Points           Kind = "points"             // an exercise worth no points
	ExerciseUnknown  Kind = "exercise_unknown"   // a lesson lists an exercise that does not exist
	LessonNone       Kind = "lesson_none"        // no lesson lists the exercise
	Todo             Kind = "todo"               // TODO(author): something left to write
	TodoTestName     Kind = "todo_test_name"     // a hidden test still has the example's name
	TodoCaughtBy     Kind = "todo_caught_by"     // caught_by still names the example's test
	Headings         Kind = "headings"           // the languages' sections differ
	Tables           Kind = "tables"             // the languages' tables differ in number
	TableShape       Kind = "table_shape"        // a table has other columns or rows in the other language
	CodeBlocks       Kind = "code_blocks"        // the languages' code blocks differ
	Mentions         Kind = "mentions"           // an exercise mentioned in one language only
	Markers          Kind = "markers"            // the languages tie different tables to traces
	Link             Kind = "link"               // a link to a file or section that does not exist
	Image            Kind = "image"              // an image that does not exist
	MarkerSyntax     Kind = "marker_syntax"      // a kurs:trace marker that cannot be read
	MarkerTarget     Kind = "marker_target"      // a marker naming an unknown exercise or test
	MarkerNoTable    Kind = "marker_no_table"    // a marker not followed by a table
	TableColumns     Kind = "table_columns"      // a marker naming more or fewer columns than the table has
	TableRows        Kind = "table_rows"         // a tied table with another number of rows than the trace
	TableCell        Kind = "table_cell"         // a number in a tied table that the reference does not produce
	TableCalls       Kind = "table_calls"        // a row whose calls differ from the trace's
	TableUnchecked   Kind = "table_unchecked"    // a tied table whose trace could not be replayed
	AllowlistRefused Kind = "allowlist_refused"  // the allowlist names a package kurs always refuses
	RefImport        Kind = "ref_import"         // the reference imports a package outside the allowlist
	RefParse         Kind = "ref_parse"          // the reference does not parse
	RefFails         Kind = "ref_fails"          // the reference fails a hidden test
	QuizRefFails     Kind = "quiz_ref_fails"     // a quiz's answers fail one of its cases
	RefError         Kind = "ref_error"          // the reference does not build or crashes
	SkeletonPasses   Kind = "skeleton_passes"    // a skeleton passes every hidden test
	SkeletonError    Kind = "skeleton_error"     // a skeleton that does not compile (or is refused)
	TraceNew         Kind = "trace_new"          // a trace passes New the wrong number of arguments
	TraceCall        Kind = "trace_call"         // a step calls a method the reference does not have
	TraceArgs        Kind = "trace_args"         // a step passes the wrong number of arguments
	TraceWhole       Kind = "trace_whole"        // a step passes a fraction to an int parameter
	TraceNoNew       Kind = "trace_no_new"       // traces for a reference without New
	TracePanics      Kind = "trace_panics"       // the reference cannot run a fixed trace
	RandomPanics     Kind = "random_panics"      // the reference cannot run a random trace
	NoFixedTraces    Kind = "no_fixed_traces"    // a trace exercise without fixed traces
	FewRandom        Kind = "few_random"         // fewer than 1,000 random traces
	Generate         Kind = "generate"           // a mistake in suite.json's description of random traces
	NoGenerate       Kind = "no_generate"        // random tests with a generated driver but no description
	DriverStale      Kind = "driver_stale"       // a generated driver.go that is out of date
	MutantSurvives   Kind = "mutant_survives"    // a mutant the hidden tests let through
	MutantMarkStale  Kind = "mutant_mark_stale"  // mutants.json marks a mutant that no longer survives
	CrossRef         Kind = "cross_ref"          // a text names an exercise, test, step, pitfall or lesson the course does not have
	Chapter          Kind = "chapter"            // a text names a chapter; the course has lessons
	SourceUnnamed    Kind = "source_unnamed"     // a lesson cites a source its source section does not name
	RandomCount      Kind = "random_count"       // a text states another number of random traces than the suite runs
	Quotes           Kind = "quotes"             // English quotation marks in a German text
	QuizText         Kind = "quiz_text"          // a lesson words a quiz's question or option unlike its quiz file
	QuizTextOptions  Kind = "quiz_text_options"  // a lesson prints other options of a quiz case than its quiz file has
	Glossary         Kind = "glossary"           // a text uses a word its language's glossary replaces with the course's term
	GlossaryFile     Kind = "glossary_file"      // a glossary line that cannot be read
)

// Problem is one thing to fix in a course.
type Problem struct {
	// File is relative to the course's root, slash-separated.
	File string
	// Line is 1-based; 0 means the file as a whole.
	Line int
	Kind Kind
	// Args fill in the message: name-value pairs, as i18n.Printer.T
	// takes them.
	Args []any
	// Detail is shown verbatim under the message: compiler output, a
	// panic, a diff.
	Detail string
	// Failure is set for RefFails: the check's result, so the caller can
	// explain the failing test as kurs check would.
	Failure *Failure
}

// Failure is a hidden test that the reference solution fails.
type Failure struct {
	Exercise *course.Exercise
	Result   *checker.Result
	Test     *checker.Test
}

// Report is the outcome of validating a course.
type Report struct {
	Problems  []Problem
	Lessons   int
	Exercises int
	// Mutants holds one summary per exercise when Options.Mutants is set.
	Mutants []MutantSummary
	// MutantTime is how long the mutants took, all exercises together.
	MutantTime time.Duration
	// Warnings are things to improve that do not make the course wrong.
	Warnings []Problem
	// Unchecked names the exercises whose misconceptions were not run
	// against the hidden tests, as the reference fails them: their
	// problems may follow once it passes.
	Unchecked []string
	// Unread names the lessons and exercises ("lessons/x", "exercises/y")
	// that could not be read, whose files were checked no further: their
	// problems may follow once those reported are fixed.
	Unread []string
	// Signatures are the misconceptions' signatures.json as they should
	// be (see validate.SignatureFile); kurs validate --signatures writes
	// them.
	Signatures []SignatureFile
	// Runs counts the programs the validation ran or took a kept result
	// of: each check of a reference, skeleton, misconception or mutant,
	// and each session of a test program. Reused counts those of them
	// whose result was kept from an earlier validation with the same
	// inputs (see Checker.Reuse) and did not run again.
	Runs, Reused int
}

// Options tune a validation.
type Options struct {
	// Checker runs the hidden tests; nil means a Checker with defaults.
	Checker *checker.Checker
	// Jobs is how many checks run at once; 0 means one per CPU.
	Jobs int
	// Mutants asks for mutation testing of the hidden tests.
	Mutants bool
	// Progress, when set, hears how far each phase that runs code is. It
	// is called from one goroutine at a time, not always the same one.
	Progress func(Progress)
}

func (o Options) jobs() int {
	if o.Jobs > 0 {
		return o.Jobs
	}
	return runtime.NumCPU()
}

func (o Options) checker() *checker.Checker {
	if o.Checker != nil {
		return o.Checker
	}
	return &checker.Checker{}
}

// Run validates the course in fsys. The error is kurs's own failure (no go
// command, a cancelled context), never the course's: those are Problems.
func Run(ctx context.Context, fsys fs.FS, opts Options) (*Report, error) {
	v := &validator{fsys: fsys}
	own := *opts.checker()
	if own.Build == nil {
		// One Builder for every check of the run, as kurs validate has:
		// each kit, judge and file's hash is made or checked once.
		b, err := build.New(build.Options{TempDir: own.TempDir})
		if err != nil {
			return nil, err
		}
		defer b.Close()
		own.Build = b
	}
	told := own.Reused
	own.Reused = func(ex *course.Exercise) {
		v.tally.reused.Add(1)
		if told != nil {
			told(ex)
		}
	}
	opts.Checker = &own
	v.opts = opts
	c := v.structure()
	r := &Report{}
	if c != nil {
		r.Lessons, r.Exercises = len(c.Lessons), len(c.Exercises)
		v.texts(c)
		v.testTitles(c)
		v.prose(c)
		v.quizSync(c)
		v.glossary(c)
		docs := v.lessons(c)
		codes := v.code(c)
		runs, err := v.run(ctx, c, codes)
		if err != nil {
			return nil, err
		}
		v.tables(c, codes, docs, runs)
		if r.Signatures, err = v.misconceptions(ctx, c, codes); err != nil {
			return nil, err
		}
		if opts.Mutants {
			if r.Mutants, r.MutantTime, err = v.mutants(ctx, c, codes); err != nil {
				return nil, err
			}
		}
	}
	v.todos()
	v.existing()
	slices.SortStableFunc(v.problems, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	r.Runs, r.Reused = int(v.tally.runs.Load()), int(v.tally.reused.Load())
	r.Warnings, r.Unchecked = v.warnings, v.unchecked
	r.Unread = slices.Sorted(maps.Keys(v.broken))
	r.Problems = slices.CompactFunc(v.problems, func(a, b Problem) bool {
		return a.File == b.File && a.Line == b.Line && a.Kind == b.Kind && slices.Equal(a.Args, b.Args) && a.Detail == b.Detail
	})
	return r, nil
}

// validator collects problems while it goes through a course.
type validator struct {
	fsys     fs.FS
	opts     Options
	problems []Problem
	warnings []Problem
	// broken holds the lessons and exercises ("lessons/x", "exercises/y")
	// that could not be read, so that nothing is reported twice.
	broken map[string]bool
	// json remembers the positions in every JSON file read.
	json map[string]jsonLines
	// unchecked is Report.Unchecked.
	unchecked []string
	// miscFails holds, by exercise, the hidden tests some misconception
	// fails.
	miscFails map[string]map[string]bool
	// tally counts the programs run and those whose kept result stood in.
	tally tally
}

// tally counts, for Report.Runs and Report.Reused, from the goroutines
// that run checks and sessions at once.
type tally struct{ runs, reused atomic.Int64 }

// add records a problem and returns it, for a Detail or Failure to be set
// right away (the pointer is good until the next add).
func (v *validator) add(file string, line int, kind Kind, args ...any) *Problem {
	v.problems = append(v.problems, Problem{File: file, Line: line, Kind: kind, Args: args})
	return &v.problems[len(v.problems)-1]
}

// at returns the line of a JSON path in file, which must have been read.
func (v *validator) at(file, path string) int {
	if l, ok := v.json[file]; ok {
		return l.lineOf(path)
	}
	return 1
}

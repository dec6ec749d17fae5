package course

// Kind is how an exercise is graded.
type Kind string

// Kinds of exercises.
const (
	// KindTrace exercises are graded by traces of calls, compared with the
	// reference by a judge: fixed and random traces, measured outcomes
	// (an outcome/ package that the driver runs) and stress runs of a
	// Concurrent exercise.
	KindTrace Kind = "trace"
	// KindQuiz exercises are graded by reading the learner's answers,
	// which are never run. A quiz is data: its cases in quiz.LANG.md, its
	// answers in exercise.json.
	KindQuiz Kind = "quiz"
)

// Kinds are the kinds an exercise can have, in the order messages list
// them. Adding a kind is adding it here and to traits (see "Adding an
// exercise kind" in docs/authoring.md).
var Kinds = []Kind{KindTrace, KindQuiz}

// Scoring is how an exercise's points follow from its tests.
type Scoring int

// Scorings.
const (
	// AllOrNothing gives every point once every test passes, none before:
	// code that passes most tests is still wrong.
	AllOrNothing Scoring = iota
	// PerCase gives a point for each test (each case of a quiz) passed.
	PerCase
)

// Traits are what an exercise kind offers the learner, what it is made
// of and how it is graded. Every package but this file asks an
// exercise's traits, never its kind (a test holds the code to that), so
// that each rule that differs by kind has one owner and a new kind is
// one entry in traits.
type Traits struct {
	// Editor says the learner writes Go code: the page offers an editor
	// of the exercise's files.
	Editor bool
	// Answers says the learner's file holds one answer per case, which
	// the page's form writes; the page shows the form instead of an
	// editor's result.
	Answers bool
	// Try says the learner can run traces of their own on their code
	// and on the reference (kurs try, the page's "Try a trace").
	Try bool
	// Data says the exercise is data, not code: its cases are in
	// quiz.LANG.md and its answers in exercise.json, and the course
	// makes its reference, its test driver and its suite from them. It
	// has no solution/, no testdata/ and no misconceptions, which are
	// wrong versions of a reference's code.
	Data bool
	// ExplainAll says every test of a result is explained, not only the
	// first that fails: each case of a quiz is a question of its own.
	ExplainAll bool
	// Scoring is how the points follow from the tests.
	Scoring Scoring
}

// traits are the traits of each kind.
var traits = map[Kind]Traits{
	KindTrace: {Editor: true, Try: true, Scoring: AllOrNothing},
	KindQuiz:  {Answers: true, Data: true, ExplainAll: true, Scoring: PerCase},
}

// Traits returns what exercises of kind k offer; the zero Traits for a
// kind that does not exist.
func (k Kind) Traits() Traits { return traits[k] }

// Traits returns what the exercise offers the learner, as its kind says.
func (e *Exercise) Traits() Traits { return e.kind.Traits() }

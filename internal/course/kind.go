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

// Traits are what an exercise kind offers the learner and how it is
// graded. Front ends ask an exercise's traits, never its kind or the
// shape of its data, so that a new kind is one entry in traits.
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
	// ExplainAll says every test of a result is explained, not only the
	// first that fails: each case of a quiz is a question of its own.
	ExplainAll bool
	// Scoring is how the points follow from the tests.
	Scoring Scoring
}

// traits are the traits of each kind.
var traits = map[Kind]Traits{
	KindTrace: {Editor: true, Try: true, Scoring: AllOrNothing},
	KindQuiz:  {Answers: true, ExplainAll: true, Scoring: PerCase},
}

// Traits returns what exercises of kind k offer; the zero Traits for a
// kind that does not exist.
func (k Kind) Traits() Traits { return traits[k] }

// Traits returns what the exercise offers the learner, as its kind says.
func (e *Exercise) Traits() Traits { return e.kind.Traits() }

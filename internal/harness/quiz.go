package harness

import "strings"

// QuizDriver is a Driver for quizzes: the learner's program reports its
// answers, one per case, and the judge compares each with the reference's.
type QuizDriver struct {
	// Answers returns the package's answers: the learner's in the
	// learner's program, the reference's in the judge.
	Answers func() []string

	given []string // the learner's answers, asked for once
	asked bool
}

// measureAnswers names the measurement that asks for the answers.
const measureAnswers = "answers"

// Judge grades one case in the judge.
func (q *QuizDriver) Judge(t Test, _ uint64, l *Learner) (*Failure, error) {
	if !q.asked {
		claim, err := l.Measure(measureAnswers)
		if err != nil {
			return nil, err
		}
		q.asked = true
		q.given, _ = UnquoteFields(claim)
	}
	i := t.Case - 1
	given, right := "", ""
	if i >= 0 && i < len(q.given) {
		// The answer as the learner wrote it, so that a report can show
		// it so; it is graded whatever its case.
		given = clip(strings.TrimSpace(q.given[i]))
	}
	if ref := q.Answers(); i >= 0 && i < len(ref) {
		right = Answer(ref[i])
	}
	return &Failure{Kind: Quiz, Pass: given != "" && Answer(given) == right, Case: t.Case, Given: given}, nil
}

// Serve reports the learner's answers.
func (q *QuizDriver) Serve(req Request, r *Replier) {
	var answers []string
	if req.Measure == measureAnswers {
		answers = q.Answers()
	}
	r.Measured(QuoteFields(answers...))
}

// Answer normalizes a quiz answer: surrounding space trimmed, upper case.
func Answer(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

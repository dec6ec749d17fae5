// The test program of the exercise bulkheadquiz: it compares the learner's
// answer for each case with the reference's.
package main

import (
	learner "github.com/kurs-course/kurs/bulkheadquiz"
	"github.com/kurs-course/kurs/internal/harness"
	reference "github.com/kurs-course/kurs/internal/reference/bulkheadquiz"
)

func main() { harness.Main(quiz{}) }

type quiz struct{}

func (quiz) Run(t harness.Test, _ uint64, _ *harness.Progress) *harness.Failure {
	i := t.Case - 1
	given := harness.Answer(learner.Answer[i])
	right := given == harness.Answer(reference.Answer[i])
	return &harness.Failure{Kind: harness.Quiz, Pass: right, Case: t.Case, Given: given}
}

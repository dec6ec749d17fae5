package explain

import (
	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
)

// Audience says whom a text speaks to.
type Audience int

// Audiences.
const (
	// Learner is who wrote the code and reads kurs check, the page or
	// Gradescope: told what to do next ("'kurs init' creates the
	// skeleton again").
	Learner Audience = iota
	// Teacher is who grades: the batch document, the class report, JUnit
	// and GitHub's annotations speak about the submission ("the
	// submission has no .go file for circuitbreaker") and tell no one to
	// run kurs init, check or hint, which a teacher has no use for.
	Teacher
	// Student is who submitted the code to a grader and reads its verdict
	// there (Gradescope): spoken to as a learner is, but without kurs at
	// hand, so told to change the code and submit it again, never to run
	// kurs hint or kurs init.
	Student
)

// MessageFor is Message of g's result for aud; it names no
// misconception when g's files were the skeleton.
func MessageFor(p *i18n.Printer, g Graded, aud Audience) string {
	if res := g.Result; aud == Teacher && res.Status == checker.Error {
		return ProblemFor(p, res.Problem, Teacher, res.Exercise)
	}
	return message(p, g.Exercise, g.Result, Options{Untouched: g.Untouched})
}

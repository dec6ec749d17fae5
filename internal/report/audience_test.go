package report_test

import (
	"bytes"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/report"
)

// learnerAdvice matches what kurs tells a learner to run, which a teacher
// reading about a class has no use for.
var learnerAdvice = regexp.MustCompile(`kurs (init|check|hint)`)

// untestable returns the fixture with every way an exercise cannot be
// tested that has a teacher's wording: no file, a refused import, a
// silent crash, a hang in init, a file name kurs needs, a file not UTF-8.
func untestable(t *testing.T) [][]explain.Graded {
	t.Helper()
	var all [][]explain.Graded
	for _, pr := range []checker.Problem{
		{Kind: checker.ProblemNoFiles},
		{Kind: checker.ProblemImport, File: "circuitbreaker/a.go", Line: 3, Detail: "os/exec"},
		{Kind: checker.ProblemImport, File: "circuitbreaker/a.go", Line: 3, Detail: "math/rand", Allowed: []string{"errors"}},
		{Kind: checker.ProblemCrash},
		{Kind: checker.ProblemTimeout},
		{Kind: checker.ProblemReservedName, File: "circuitbreaker/kurs_judge.go"},
		{Kind: checker.ProblemNotUTF8, File: "circuitbreaker/a.go"},
		{Kind: checker.ProblemPackage, File: "circuitbreaker/a.go", Detail: "main"},
		{Kind: checker.ProblemBuildLimit},
		{Kind: checker.ProblemTooMany, Detail: "64"},
	} {
		graded := fixture(t)
		res := *graded[0].Result
		res.Status, res.Score, res.Problem, res.Tests = checker.Error, 0, &pr, nil
		graded[0].Result = &res
		all = append(all, graded)
	}
	return all
}

// TestTeacherTexts: the class report, the batch document, JUnit and
// GitHub's annotations speak about the submission and tell no one to run
// kurs init, check or hint, in both languages; kurs check's own words
// for the learner still do.
func TestTeacherTexts(t *testing.T) {
	for _, lang := range i18n.Languages {
		p := i18n.New(lang)
		b := &report.Batch{Version: report.Version, Course: "sha256:c0ffee", Kurs: "v1.2.0+0123456789ab", Seed: 7}
		for i, graded := range untestable(t) {
			if i == 0 {
				for _, g := range graded {
					b.ExerciseIDs = append(b.ExerciseIDs, g.Exercise.ID)
				}
			}
			b.Submissions = append(b.Submissions, report.Entry{ID: string(rune('a' + i)), Document: report.NewDocumentFor(p, graded, explain.Teacher)})

			var out bytes.Buffer
			require.NoError(t, report.GitHub(&out, p, graded, "ws"))
			require.NoError(t, report.JUnit(&out, p, graded, fixtureRun))
			assert.NotRegexp(t, learnerAdvice, out.String(), "%s: %s", lang, graded[0].Result.Problem.Kind)
		}
		var html bytes.Buffer
		var exs []*course.Exercise
		for _, g := range fixture(t) {
			exs = append(exs, g.Exercise)
		}
		require.NoError(t, report.Class(&html, p, b, exs))
		assert.NotRegexp(t, learnerAdvice, html.String(), lang)
		var doc bytes.Buffer
		require.NoError(t, report.JSON(&doc, b))
		assert.NotRegexp(t, learnerAdvice, doc.String(), lang)

		missing := map[string]string{
			"en": "The submission has no .go file for circuitbreaker.",
			"de": "Die Abgabe hat keine .go-Datei für circuitbreaker.",
		}[lang]
		assert.Contains(t, doc.String(), missing, "the batch document says what the submission lacks")

		// The learner is still told what to do.
		learner := explain.Problem(p, &checker.Problem{Kind: checker.ProblemNoFiles})
		assert.Regexp(t, learnerAdvice, learner)

		// An unanswered quiz case: a class's JUnit speaks about the
		// submission, the submission's own JUnit to the learner.
		graded := fixture(t)
		quiz := *graded[2].Result
		quiz.Tests = slices.Clone(quiz.Tests)
		f := *quiz.Tests[1].Failure
		f.Given = ""
		quiz.Tests[1].Failure = &f
		graded[2].Result = &quiz
		want := map[string][2]string{
			"en": {`message="Case 2: the submission gives no answer."`, `message="Case 2: no answer yet. Put one of the letters A–D into Answer."`},
			"de": {`message="Fall 2: Die Abgabe gibt keine Antwort."`, `message="Fall 2: noch keine Antwort. Trage einen der Buchstaben A–D in Answer ein."`},
		}[lang]
		class := &report.Batch{Version: report.Version, Course: "sha256:c0ffee", Kurs: "v1.2.0+0123456789ab", Seed: 7, ExerciseIDs: b.ExerciseIDs,
			Submissions: []report.Entry{{ID: "ada", Document: report.NewDocumentFor(p, graded, explain.Teacher)}}}
		var classJUnit, own bytes.Buffer
		require.NoError(t, report.BatchJUnit(&classJUnit, p, class, exs))
		assert.Contains(t, classJUnit.String(), want[0], lang)
		require.NoError(t, report.JUnit(&own, p, graded, fixtureRun))
		assert.Contains(t, own.String(), want[1], lang)
	}
}

// TestPackageNamesTheExpectedName: a package named otherwise says which
// name it must have, the exercise folder's, to the learner and the
// teacher alike, in both languages.
func TestPackageNamesTheExpectedName(t *testing.T) {
	pr := &checker.Problem{Kind: checker.ProblemPackage, File: "circuitbreaker/a.go", Line: 1, Detail: "ratelimit"}
	for lang, want := range map[string][2]string{
		"en": {"circuitbreaker/a.go:1: the package is called ratelimit; it must be called circuitbreaker, as the exercise's folder is.",
			"circuitbreaker/a.go:1: the package is called ratelimit, not circuitbreaker as the exercise's folder is."},
		"de": {"circuitbreaker/a.go:1: das Paket heißt ratelimit; es muss circuitbreaker heißen, wie der Ordner der Übung.",
			"circuitbreaker/a.go:1: das Paket heißt ratelimit, nicht circuitbreaker wie der Ordner der Übung."},
	} {
		p := i18n.New(lang)
		assert.Equal(t, want[0], explain.Problem(p, pr))
		graded := fixture(t)
		res := *graded[0].Result
		res.Status, res.Score, res.Problem, res.Tests = checker.Error, 0, pr, nil
		graded[0].Result = &res
		doc := report.NewDocumentFor(p, graded, explain.Teacher)
		assert.Equal(t, want[1], doc.Exercises[0].Message, lang)
	}
}

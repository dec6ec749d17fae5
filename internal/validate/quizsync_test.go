package validate

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
)

// textChecks runs the two checks of texts that need no build, quiz sync
// and glossary, on fsys and returns their problems as "file:line kind
// Arg=value …".
func textChecks(t *testing.T, fsys fstest.MapFS) []string {
	t.Helper()
	c, err := course.Load(fsys)
	require.NoError(t, err)
	v := &validator{fsys: fsys}
	v.structure()
	v.problems = nil
	v.quizSync(c)
	v.glossary(c)
	var out []string
	for _, p := range v.problems {
		out = append(out, strings.Join(append(where([]Problem{p}), argsOf(p)...), " "))
	}
	return out
}

// quizCourse is a course with one lesson that prints the cases of its
// quiz, as this course's lessons do.
func quizCourse(t *testing.T, lessonEN string) fstest.MapFS {
	m := mapCourse(t, "testdata/weak")
	m["lessons/main/lesson.json"].Data = []byte(`{"id": "main", "order": 1, "title": {"de": "Deckel", "en": "Ceiling"}, "exercises": ["clamp", "pick"]}`)
	m["exercises/pick/exercise.json"] = &fstest.MapFile{Data: []byte(`{"id": "pick", "kind": "quiz", "points": 1, "title": {"de": "Wahl", "en": "Choice"}, "imports": [], "answers": ["A"]}`)}
	for lang, label := range map[string]string{"de": "Fall 1", "en": "Case 1"} {
		m["exercises/pick/task."+lang+".md"] = &fstest.MapFile{Data: []byte("Wähle.\n\n<!-- kurs:quiz -->\n")}
		m["exercises/pick/hints."+lang+".md"] = &fstest.MapFile{Data: []byte("## 1\n\nDenk nach.\n")}
		m["exercises/pick/skeleton/"+lang+"/pick.go"] = &fstest.MapFile{Data: []byte("package pick\n\n// Answer is the answer.\nvar Answer = [1]string{}\n")}
		m["exercises/pick/quiz."+lang+".md"] = &fstest.MapFile{Data: []byte("## " + label + "\n\nWhich one\nholds?\n\n### A\n\nThis one.\n\n> Because.\n\n### B\n\nThat one.\n\n> Not so.\n")}
	}
	old := string(m["lessons/main/en.md"].Data)
	m["lessons/main/en.md"].Data = []byte(old + "\n" + lessonEN)
	de := string(m["lessons/main/de.md"].Data)
	m["lessons/main/de.md"].Data = []byte(de + "\n**Fall 1.** Which one holds?\n\n- **A** This one.\n- **B** That one.\n")
	return m
}

// TestQuizSync plants a lesson whose copy of a quiz case drifted from the
// quiz file, in its question, in an option and in the options it prints,
// and expects each reported at the lesson's line with the quiz file's
// line; a faithful copy, line breaks aside, is no problem.
func TestQuizSync(t *testing.T) {
	t.Parallel()
	m := quizCourse(t, "**Case 1.** Which one\nholds?\n\n- **A** This one.\n- **B** That one.\n")
	assert.Empty(t, textChecks(t, m), "a faithful copy")

	m = quizCourse(t, "**Case 1.** Which one is true?\n\n- **A** This one.\n- **B** That one, surely.\n- **C** Neither.\n")
	at := func(prefix string) string {
		for i, ln := range strings.Split(string(m["lessons/main/en.md"].Data), "\n") {
			if strings.HasPrefix(ln, prefix) {
				return "lessons/main/en.md:" + strconv.Itoa(i+1)
			}
		}
		return "lessons/main/en.md: no line " + prefix
	}
	assert.Equal(t, []string{
		at("**Case 1.**") + " quiz_text Case=Case 1 Option= Quiz=exercises/pick/quiz.en.md:1 Got=Which one is true? Want=Which one holds?",
		at("- **B**") + " quiz_text Case=Case 1 Option=B Quiz=exercises/pick/quiz.en.md:12 Got=That one, surely. Want=That one.",
		at("**Case 1.**") + " quiz_text_options Case=Case 1 Quiz=exercises/pick/quiz.en.md:1 Got=A, B, C Want=A, B",
	}, textChecks(t, m))

	for lang, want := range map[string]string{
		"de": "die Lektion formuliert Option B von „Fall 1“ anders als exercises/pick/quiz.de.md:12: „That one, surely.“, wo die Quizdatei „That one.“ hat",
		"en": "the lesson words option B of “Case 1” unlike exercises/pick/quiz.en.md:12: “That one, surely.” where the quiz file has “That one.”",
	} {
		p := i18n.New(lang)
		case1 := map[string]string{"de": "Fall 1", "en": "Case 1"}[lang]
		assert.Equal(t, want, p.T("validate.problem_quiz_text", "Case", case1, "Option", "B", "Quiz", "exercises/pick/quiz."+lang+".md:12", "Got", "That one, surely.", "Want", "That one."))
	}
}

// TestCourseTextsAgree runs both checks on the course kurs ships: every
// lesson prints its quizzes as their files word them and uses the
// glossaries' terms.
func TestCourseTextsAgree(t *testing.T) {
	t.Parallel()
	m := fstest.MapFS{}
	for _, dir := range []string{"lessons", "exercises"} {
		for p, f := range mapCourse(t, "../../"+dir) {
			m[dir+"/"+p] = f
		}
	}
	_, err := os.Stat("../../lessons/glossary.de.txt")
	require.NoError(t, err, "the course keeps a German glossary")
	assert.Empty(t, textChecks(t, m))
}

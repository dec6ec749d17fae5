package validate

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
)

// This file checks that a lesson which prints a quiz's cases prints them
// as the quiz file words them. The task shows a quiz's cases from
// quiz.LANG.md, so a lesson that copies them and then drifts shows the
// learner two different questions under one name.

// quizSync compares, in every lesson and language, each quiz case the
// lesson prints ("**Case 1.** question", then "- **A** option" lines, the
// layout the task renders) with the quiz file of the exercise the lesson
// lists. A case the lesson does not print is not a problem; a case it
// prints differently, or with an option missing or too many, is, at the
// lesson's line.
func (v *validator) quizSync(c *course.Course) {
	for _, l := range c.Lessons {
		for _, lang := range course.Languages {
			data, err := l.Markdown(lang)
			if err != nil {
				continue // reported as a missing lesson text
			}
			file := path.Join("lessons", l.ID, lang+".md")
			lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
			for _, id := range l.Exercises {
				ex, ok := c.Exercise(id)
				if !ok {
					continue
				}
				// Only an exercise that is data has cases.
				for i, qc := range ex.Quiz {
					v.quizCaseSync(file, lines, ex, i, qc, lang)
				}
			}
		}
	}
}

// quizCaseSync compares one case as a lesson prints it with its quiz file.
func (v *validator) quizCaseSync(file string, lines []string, ex *course.Exercise, i int, qc course.QuizCase, lang string) {
	quiz := path.Join("exercises", ex.ID, "quiz."+lang+".md")
	name := strings.TrimSpace(qc.Label[lang])
	if name == "" {
		return // reported as a case without a heading
	}
	label := name
	if !strings.HasSuffix(label, ".") && !strings.HasSuffix(label, ":") {
		label += "."
	}
	start := "**" + label + "**"
	at := -1
	for n, ln := range lines {
		if strings.HasPrefix(strings.TrimSpace(ln), start) {
			at = n
			break
		}
	}
	if at < 0 {
		return // the lesson does not print this case
	}
	// The question: the rest of the line and the lines up to a blank one.
	question := []string{strings.TrimPrefix(strings.TrimSpace(lines[at]), start)}
	n := at + 1
	for ; n < len(lines) && strings.TrimSpace(lines[n]) != ""; n++ {
		question = append(question, lines[n])
	}
	if got, want := squash(strings.Join(question, " ")), squash(qc.Question[lang]); got != want {
		g, w := diffWords(got, want)
		v.add(file, at+1, QuizText, "Case", name, "Option", "", "Quiz", fmt.Sprintf("%s:%d", quiz, ex.Line(fmt.Sprintf("quiz.%s.%d", lang, i))), "Got", g, "Want", w)
	}
	// The options: "- **A** text" lines after the question, until a line
	// that is neither an option nor blank.
	var printed []string
	for ; n < len(lines); n++ {
		ln := strings.TrimSpace(lines[n])
		if ln == "" {
			continue
		}
		letter, text, ok := optionLine(ln)
		if !ok {
			break
		}
		printed = append(printed, letter)
		want, known := qc.Choices[letter][lang]
		if known && squash(text) != squash(want) {
			g, w := diffWords(squash(text), squash(want))
			v.add(file, n+1, QuizText, "Case", name, "Option", letter, "Quiz", fmt.Sprintf("%s:%d", quiz, ex.Line(fmt.Sprintf("quiz.%s.%d.%s", lang, i, letter))), "Got", g, "Want", w)
		}
	}
	var want []string
	for _, letter := range qc.Letters() {
		if _, ok := qc.Choices[letter][lang]; ok {
			want = append(want, letter)
		}
	}
	if !slices.Equal(printed, want) {
		v.add(file, at+1, QuizTextOptions, "Case", name, "Quiz", fmt.Sprintf("%s:%d", quiz, ex.Line(fmt.Sprintf("quiz.%s.%d", lang, i))), "Got", strings.Join(printed, ", "), "Want", strings.Join(want, ", "))
	}
}

// optionLine reads "- **A** text".
func optionLine(ln string) (letter, text string, ok bool) {
	rest, ok := strings.CutPrefix(ln, "- **")
	if !ok || len(rest) < 3 || rest[0] < 'A' || rest[0] > 'Z' || !strings.HasPrefix(rest[1:], "**") {
		return "", "", false
	}
	return rest[:1], strings.TrimSpace(rest[3:]), true
}

// squash collapses runs of white space, so that a line break is not a
// difference.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// diffWords returns the stretch where two texts part, with a few shared
// words on each side, so that a message shows the difference and not two
// whole paragraphs.
func diffWords(got, want string) (string, string) {
	g, w := strings.Fields(got), strings.Fields(want)
	pre := 0
	for pre < len(g) && pre < len(w) && g[pre] == w[pre] {
		pre++
	}
	post := 0
	for post < len(g)-pre && post < len(w)-pre && g[len(g)-1-post] == w[len(w)-1-post] {
		post++
	}
	cut := func(ws []string) string {
		from, to := max(pre-3, 0), min(len(ws)-post+3, len(ws))
		s := strings.Join(ws[from:to], " ")
		if from > 0 {
			s = "… " + s
		}
		if to < len(ws) {
			s += " …"
		}
		return s
	}
	return cut(g), cut(w)
}

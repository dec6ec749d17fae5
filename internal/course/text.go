package course

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// QuizMarker is the line of a quiz's task.LANG.md where the cases of
// quiz.LANG.md appear, with their options.
const QuizMarker = "<!-- kurs:quiz -->"

// mdLine is a line of a Markdown file and whether it is a heading of the
// file's structure: "## " or "### " at the start, outside code blocks.
type mdLine struct {
	n     int // 1-based
	text  string
	level int // 2 or 3 for a structural heading, else 0
}

// mdLines splits a Markdown file into lines, marking the headings of levels
// 2 and 3 that lie outside fenced code blocks.
func mdLines(data []byte) []mdLine {
	var out []mdLine
	fence := ""
	for i, l := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		ml := mdLine{n: i + 1, text: l}
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		case strings.HasPrefix(l, "## "):
			ml.level = 2
		case strings.HasPrefix(l, "### "):
			ml.level = 3
		}
		out = append(out, ml)
	}
	return out
}

// body joins lines into a text, without the blank lines around it.
func body(lines []mdLine) string {
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = l.text
	}
	return strings.TrimSpace(strings.Join(s, "\n"))
}

// section is a heading and the lines up to the next heading of its level
// or above.
type section struct {
	line  int
	title string
	lines []mdLine
}

// sections splits lines at the headings of level; lines before the first
// heading are returned as the preamble.
func sections(lines []mdLine, level int) (pre []mdLine, secs []section) {
	for _, l := range lines {
		if l.level == level {
			secs = append(secs, section{line: l.n, title: strings.TrimSpace(l.text[level+1:])})
			continue
		}
		if l.level != 0 && l.level < level {
			break // not reached: callers split the higher level first
		}
		if len(secs) == 0 {
			pre = append(pre, l)
		} else {
			secs[len(secs)-1].lines = append(secs[len(secs)-1].lines, l)
		}
	}
	return pre, secs
}

// markdownError reports a Markdown file that is not laid out as it must be.
func markdownError(file string, line int, what, got string) *Error {
	return &Error{File: file, Line: line, Code: ErrMarkdown, Args: []any{"What", what, "Got", got},
		Msg: fmt.Sprintf("%s (found %q)", markdownRules[what], got)}
}

// markdownRules explains each way a text file can break its layout.
var markdownRules = map[string]string{
	"preamble":       `nothing but blank lines may come before the first "## " heading`,
	"option_heading": `an option's heading is "### " and one capital letter, such as "### A"`,
	"option_twice":   "two options have the same letter",
	"option_order":   `the explanation, quoted with "> ", comes after the option's text`,
	"option_text":    "an option's text is one paragraph",
	"no_options":     `a case needs its options, each under a heading such as "### A"`,
}

// readText reads an optional text file of the exercise; a missing file
// gives "" and no error (validate reports it).
func readText(fsys fs.FS, name string) ([]byte, error) {
	data, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// parseHints reads hints.LANG.md: one hint per "## " section, in order.
// It returns the hints and the line of each heading.
func parseHints(file string, data []byte) ([]string, []int, error) {
	pre, secs := sections(mdLines(data), 2)
	if t := body(pre); t != "" {
		return nil, nil, markdownError(file, firstText(pre), "preamble", firstLine(t))
	}
	var hints []string
	var lines []int
	for _, s := range secs {
		hints = append(hints, body(s.lines))
		lines = append(lines, s.line)
	}
	return hints, lines, nil
}

// quizText is one language's quiz.LANG.md.
type quizText struct {
	cases []quizCaseText
}

type quizCaseText struct {
	line     int
	label    string
	question string
	letters  []string // in the file's order
	choices  map[string]string
	why      map[string]string
	lines    map[string]int // option letter → its heading's line; letter+".why" → its explanation's
}

// parseQuiz reads quiz.LANG.md:
//
//	## Case 1
//
//	The question, one paragraph.
//
//	### A
//
//	The option's text, one paragraph.
//
//	> Why the option is right or wrong: its explanation, quoted.
//
//	### B
//	…
func parseQuiz(file string, data []byte) (*quizText, error) {
	pre, secs := sections(mdLines(data), 2)
	if t := body(pre); t != "" {
		return nil, markdownError(file, firstText(pre), "preamble", firstLine(t))
	}
	q := &quizText{}
	for _, s := range secs {
		c := quizCaseText{line: s.line, label: s.title, choices: map[string]string{}, why: map[string]string{}, lines: map[string]int{}}
		question, opts := sections(s.lines, 3)
		c.question = body(question)
		if len(opts) == 0 {
			return nil, markdownError(file, s.line, "no_options", s.title)
		}
		for _, o := range opts {
			letter := o.title
			if len(letter) != 1 || letter[0] < 'A' || letter[0] > 'Z' {
				return nil, markdownError(file, o.line, "option_heading", "### "+letter)
			}
			if _, ok := c.lines[letter]; ok {
				return nil, markdownError(file, o.line, "option_twice", "### "+letter)
			}
			c.lines[letter] = o.line
			c.letters = append(c.letters, letter)
			var text, why []string
			for _, l := range o.lines {
				t := strings.TrimSpace(l.text)
				switch {
				case strings.HasPrefix(t, ">"):
					if len(why) == 0 {
						c.lines[letter+".why"] = l.n
					}
					why = append(why, strings.TrimPrefix(strings.TrimPrefix(t, ">"), " "))
				case t == "":
					if len(text) > 0 && len(why) == 0 {
						text = append(text, "")
					}
				case len(why) > 0:
					return nil, markdownError(file, l.n, "option_order", firstLine(t))
				default:
					if len(text) > 0 && text[len(text)-1] == "" {
						return nil, markdownError(file, l.n, "option_text", firstLine(t))
					}
					text = append(text, t)
				}
			}
			c.choices[letter] = strings.TrimSpace(strings.Join(text, " "))
			c.why[letter] = strings.TrimSpace(strings.Join(why, "\n"))
		}
		q.cases = append(q.cases, c)
	}
	return q, nil
}

// firstText returns the line of the first non-blank line.
func firstText(lines []mdLine) int {
	for _, l := range lines {
		if strings.TrimSpace(l.text) != "" {
			return l.n
		}
	}
	return 1
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

// quizMarkdown renders the cases of a quiz in lang as the task shows them:
// each case's label in bold before its question, then its options as a
// list, "- **A** text".
func quizMarkdown(cases []QuizCase, lang string) string {
	var b strings.Builder
	for i, c := range cases {
		if i > 0 {
			b.WriteString("\n\n")
		}
		label := c.Label[lang]
		if !strings.HasSuffix(label, ".") && !strings.HasSuffix(label, ":") {
			label += "."
		}
		fmt.Fprintf(&b, "**%s** %s\n", label, c.Question[lang])
		for _, letter := range c.Letters() {
			fmt.Fprintf(&b, "\n- **%s** %s", letter, c.Choices[letter][lang])
		}
	}
	return b.String()
}

// loadTexts reads the exercise's task, hints and, for a quiz, its cases,
// in every language.
func (e *Exercise) loadTexts(dir string) error {
	e.Summary, e.Hints, e.lines = Text{}, map[string][]string{}, map[string]int{}
	quizzes := map[string]*quizText{}
	for _, lang := range Languages {
		task, err := readText(e.fsys, "task."+lang+".md")
		if err != nil {
			return err
		}
		e.Summary[lang] = strings.TrimSpace(string(task))
		name := "hints." + lang + ".md"
		data, err := readText(e.fsys, name)
		if err != nil {
			return err
		}
		hints, lines, err := parseHints(path.Join(dir, name), data)
		if err != nil {
			return err
		}
		e.Hints[lang] = hints
		for i, n := range lines {
			e.lines[fmt.Sprintf("hints.%s.%d", lang, i)] = n
		}
		if !e.Traits().Data {
			continue
		}
		name = "quiz." + lang + ".md"
		if data, err = readText(e.fsys, name); err != nil {
			return err
		}
		if quizzes[lang], err = parseQuiz(path.Join(dir, name), data); err != nil {
			return err
		}
	}
	if !e.Traits().Data {
		return nil
	}
	n := 0
	for _, q := range quizzes {
		n = max(n, len(q.cases))
	}
	for i := range n {
		c := QuizCase{Case: i + 1, Label: Text{}, Question: Text{}, Choices: map[string]Text{}, Options: map[string]Text{}}
		if i < len(e.answers) {
			c.Answer = e.answers[i]
		}
		for _, lang := range Languages {
			if i >= len(quizzes[lang].cases) {
				continue
			}
			qc := quizzes[lang].cases[i]
			c.Label[lang], c.Question[lang] = qc.label, qc.question
			e.lines[fmt.Sprintf("quiz.%s.%d", lang, i)] = qc.line
			for _, letter := range qc.letters {
				if c.Choices[letter] == nil {
					c.Choices[letter], c.Options[letter] = Text{}, Text{}
				}
				c.Choices[letter][lang], c.Options[letter][lang] = qc.choices[letter], qc.why[letter]
				e.lines[fmt.Sprintf("quiz.%s.%d.%s", lang, i, letter)] = qc.lines[letter]
				if n, ok := qc.lines[letter+".why"]; ok {
					e.lines[fmt.Sprintf("quiz.%s.%d.%s.why", lang, i, letter)] = n
				}
			}
		}
		e.Quiz = append(e.Quiz, c)
	}
	for _, lang := range Languages {
		cases := quizMarkdown(e.Quiz, lang)
		task := e.Summary[lang]
		if before, after, ok := strings.Cut(task, QuizMarker); ok {
			e.Summary[lang] = strings.TrimSpace(strings.TrimRight(before, " \n") + "\n\n" + cases + "\n\n" + strings.TrimLeft(after, " \n"))
		} else if task != "" {
			e.Summary[lang] = task + "\n\n" + cases
		}
	}
	return nil
}

// Letters returns the case's option letters in order.
func (c QuizCase) Letters() []string {
	letters := make([]string, 0, len(c.Choices))
	for l := range c.Choices {
		letters = append(letters, l)
	}
	for l := range c.Options {
		if !slices.Contains(letters, l) {
			letters = append(letters, l)
		}
	}
	slices.Sort(letters)
	return letters
}

package scaffold

import "text/template"

// The texts of a new lesson. Headings stay in step between the languages,
// as kurs validate demands.
var lessonText = map[string]*template.Template{
	"de": template.Must(template.New("de").Parse(`# TODO(author): Titel der Lektion

TODO(author): Ein Satz dazu, worum es geht und wie lange die Lektion dauert.

## Worum es geht

TODO(author): Was die Lernenden am Ende können.

## Konzept

TODO(author): Das Konzept, Schritt für Schritt. Eine durchgerechnete Tabelle
kannst du mit einem Kommentar direkt davor an einen Trace aus suite.json
binden; kurs validate rechnet sie dann mit der Referenzlösung nach (siehe
docs/authoring.de.md).

## Übungen

TODO(author): Die Übungen der Lektion, jeweils mit ` + "`kurs check ÜBUNG`" + `.

## Merksatz

TODO(author): Das Wichtigste in einem Satz.
`)),
	"en": template.Must(template.New("en").Parse(`# TODO(author): title of the lesson

TODO(author): A sentence on what this is about and how long the lesson takes.

## What this is about

TODO(author): What learners can do by the end.

## Concept

TODO(author): The concept, step by step. A worked table can be tied to a
trace of suite.json with a comment right before it; kurs validate then
recomputes it with the reference solution (see docs/authoring.md).

## Exercises

TODO(author): The lesson's exercises, each with ` + "`kurs check EXERCISE`" + `.

## Key takeaway

TODO(author): The essentials in one sentence.
`)),
}

// solutionText is the example reference solution of a new exercise: a
// counter, small enough to replace and complete enough to run.
var solutionText = template.Must(template.New("solution").Parse(`// Package {{.ID}} is the reference solution of the exercise "{{.ID}}".
//
{{- if .Todo}}
// TODO(author): replace this example with the reference solution.
//
{{- end}}
// Its API, the function New and the exported methods of the type New
// returns, is what the hidden tests call and what the learner's code must
// have; after changing it, run
//
//	kurs new driver {{.ID}}
package {{.ID}}

// Counter is an example: a count that goes up and down.
type Counter struct {
	n int
}

// New returns a counter that starts at start.
func New(start int) *Counter {
	return &Counter{n: start}
}

// Add adds d to the count.
func (c *Counter) Add(d int) {
	c.n += d
}

// Value returns the count.
func (c *Counter) Value() int {
	return c.n
}
`))

// skeletonText is what a learner starts from: the same API, doing nothing
// yet, commented in the learner's language.
var skeletonText = map[string]*template.Template{
	"de": template.Must(template.New("de").Parse(`// Package {{.ID}} ist eine Übung.
//
// {{.Doc}}
//
// Prüfe deine Lösung mit
//
//	kurs check {{.ID}}
//
// und hol dir den nächsten Hinweis mit
//
//	kurs hint {{.ID}}
package {{.ID}}

// Counter ist ein Zähler, der hoch- und runterzählt.
type Counter struct {
	// TODO: der Zustand.
}

// New gibt einen Zähler zurück, der bei start beginnt.
func New(start int) *Counter {
	// TODO: start merken.
	return &Counter{}
}

// Add addiert d zum Zählerstand.
func (c *Counter) Add(d int) {
	// TODO: addieren.
}

// Value gibt den Zählerstand zurück.
func (c *Counter) Value() int {
	// TODO: den Zählerstand zurückgeben.
	return 0
}
`)),
	"en": template.Must(template.New("en").Parse(`// Package {{.ID}} is an exercise.
//
// {{.Doc}}
//
// Check your solution with
//
//	kurs check {{.ID}}
//
// and get the next hint with
//
//	kurs hint {{.ID}}
package {{.ID}}

// Counter is a count that goes up and down.
type Counter struct {
	// TODO: the state.
}

// New returns a counter that starts at start.
func New(start int) *Counter {
	// TODO: remember start.
	return &Counter{}
}

// Add adds d to the count.
func (c *Counter) Add(d int) {
	// TODO: add.
}

// Value returns the count.
func (c *Counter) Value() int {
	// TODO: return the count.
	return 0
}
`)),
}

// suiteText holds the hidden tests of a new exercise: one fixed trace to
// replace and random traces described as data.
var suiteText = template.Must(template.New("suite").Parse(`{
  "observe": "Value",
  "generate": {
    "new": [{"int": [0, 5]}],
    "steps": [5, 40],
    "time": {"step": [0, 3]},
    "ops": [
      {"call": "Add", "args": [{"int": [-3, 3]}]}
    ]
  },
  "tests": [
    {
      "name": "{{.Test}}",
      "new": [2],
      "steps": [
        {"call": "Add", "args": [3], "obs": "5"},
        {"call": "Add", "args": [-1], "obs": "4"}
      ]
    },
    {"name": "random", "random": 1000}
  ]
}
`))

// quizTaskText is the task of a new quiz: its introduction, the line where
// the cases of quiz.LANG.md appear, and how to answer.
var quizTaskText = map[string]*template.Template{
	"de": template.Must(template.New("de").Parse(`{{.Intro}}

<!-- kurs:quiz -->

**So antwortest du:** Trage in ` + "`{{.ID}}.go`" + ` den Buchstaben deiner Antwort ein:

` + "```go" + `
var Answer = [1]string{"X"}
` + "```" + `

Prüfe deine Antwort mit ` + "`kurs check {{.ID}}`" + `; ` + "`kurs hint {{.ID}}`" + ` zeigt dir den nächsten Hinweis.
`)),
	"en": template.Must(template.New("en").Parse(`{{.Intro}}

<!-- kurs:quiz -->

**How to answer:** put the letter of your answer into ` + "`{{.ID}}.go`" + `:

` + "```go" + `
var Answer = [1]string{"X"}
` + "```" + `

Check your answer with ` + "`kurs check {{.ID}}`" + `; ` + "`kurs hint {{.ID}}`" + ` shows you the next hint.
`)),
}

// quizSkeletonText is what a learner of a quiz starts from: the answers,
// not given yet.
var quizSkeletonText = map[string]*template.Template{
	"de": template.Must(template.New("de").Parse(`// Package {{.ID}} ist ein Quiz: Lies die Fälle in der Aufgabe und trage
// je Fall den Buchstaben einer Option in Answer ein.
//
// Prüfe deine Antwort mit
//
//	kurs check {{.ID}}
package {{.ID}}

// Answer hält die Buchstaben der gewählten Optionen, einen je Fall.
//
// TODO: die Buchstaben eintragen.
var Answer = [1]string{""}
`)),
	"en": template.Must(template.New("en").Parse(`// Package {{.ID}} is a quiz: read the cases in the task and put the letter
// of one option per case into Answer.
//
// Check your answer with
//
//	kurs check {{.ID}}
package {{.ID}}

// Answer holds the letters of the chosen options, one per case.
//
// TODO: fill in the letters.
var Answer = [1]string{""}
`)),
}

// todoTexts are the texts of a new exercise in a course: what the author
// has still to write, marked so that kurs validate lists it.
var todoTexts = texts{
	"title": {"de": "", "en": ""},
	"task": {
		"de": "TODO(author): Die Aufgabe für die Lernenden, in Markdown.\n",
		"en": "TODO(author): The task for the learners, in Markdown.\n",
	},
	"hints": {
		"de": "## Hinweis 1\n\nTODO(author): Ein erster, sanfter Hinweis. Jeder Abschnitt „## “ ist ein Hinweis, vom sanften zum genauen.\n",
		"en": "## Hint 1\n\nTODO(author): A first, gentle hint. Every \"## \" section is one hint, from gentle to specific.\n",
	},
	"skeleton_doc": {
		"de": "TODO(author): Beschreibe die Aufgabe für die Lernenden.",
		"en": "TODO(author): describe the task for the learners.",
	},
	"todo":   {"en": "yes"},
	"test":   {"en": "TODO(author): seed/worked-example"},
	"answer": {"en": "A"},
	"quiz_intro": {
		"de": "TODO(author): Worum es in den Fällen geht.",
		"en": "TODO(author): What the cases are about.",
	},
	"quiz": {
		"de": "## Fall 1\n\nTODO(author): Die Frage des Falls.\n\n### A\n\nTODO(author): Der Text der Option A.\n\n> TODO(author): Warum A richtig oder falsch ist.\n\n### B\n\nTODO(author): Der Text der Option B.\n\n> TODO(author): Warum B richtig oder falsch ist.\n",
		"en": "## Case 1\n\nTODO(author): The case's question.\n\n### A\n\nTODO(author): The text of option A.\n\n> TODO(author): Why A is right or wrong.\n\n### B\n\nTODO(author): The text of option B.\n\n> TODO(author): Why B is right or wrong.\n",
	},
	"quiz_hints": {
		"de": "## Hinweis 1\n\nTODO(author): Ein erster, sanfter Hinweis.\n",
		"en": "## Hint 1\n\nTODO(author): A first, gentle hint.\n",
	},
}

// exampleTexts are the texts of the exercises of a new course: a complete
// example, which the author replaces.
var exampleTexts = texts{
	"title": {"de": "Ein Zähler", "en": "A counter"},
	"task": {
		"de": "Schreib einen Zähler: `New(start)` beginnt bei `start`, `Add(d)` addiert `d`, und `Value()` gibt den Stand zurück.\n\nNach `New(2)`, `Add(3)` und `Add(-1)` gibt `Value()` also 4 zurück.\n\nPrüfe deine Lösung mit `kurs check {{.ID}}`.\n",
		"en": "Write a counter: `New(start)` starts at `start`, `Add(d)` adds `d`, and `Value()` returns the count.\n\nSo after `New(2)`, `Add(3)` and `Add(-1)`, `Value()` returns 4.\n\nCheck your solution with `kurs check {{.ID}}`.\n",
	},
	"hints": {
		"de": "## Hinweis 1\n\nDer Zähler muss sich seinen Stand zwischen zwei Aufrufen merken: Das ist ein Feld des Structs.\n\n## Hinweis 2\n\n`New` setzt das Feld auf `start`, `Add` addiert `d` dazu, `Value` gibt es zurück.\n",
		"en": "## Hint 1\n\nThe counter must remember its count between two calls: that is a field of the struct.\n\n## Hint 2\n\n`New` sets the field to `start`, `Add` adds `d` to it, `Value` returns it.\n",
	},
	"skeleton_doc": {
		"de": "Ein Zähler, der hoch- und runterzählt: die erste Übung des Kurses.",
		"en": "A count that goes up and down: the course's first exercise.",
	},
	"test":   {"en": "seed/worked-example"},
	"answer": {"en": "B"},
	"quiz_intro": {
		"de": "Ein Fall zum Zähler der ersten Übung. Wähle eine Option.",
		"en": "One case about the counter of the first exercise. Choose one option.",
	},
	"quiz": {
		"de": "## Fall 1\n\nEin Zähler beginnt mit `New(2)`, dann folgen `Add(3)` und `Add(-1)`. Was gibt `Value()` zurück?\n\n### A\n\n5\n\n> 5 ist der Stand nach `Add(3)`; `Add(-1)` zieht danach noch 1 ab.\n\n### B\n\n4\n\n> Richtig: 2 + 3 − 1 = 4.\n",
		"en": "## Case 1\n\nA counter starts with `New(2)`, then come `Add(3)` and `Add(-1)`. What does `Value()` return?\n\n### A\n\n5\n\n> 5 is the count after `Add(3)`; `Add(-1)` then takes away 1 more.\n\n### B\n\n4\n\n> Right: 2 + 3 − 1 = 4.\n",
	},
	"quiz_hints": {
		"de": "## Hinweis 1\n\nRechne Schritt für Schritt: Wo steht der Zähler nach jedem Aufruf?\n",
		"en": "## Hint 1\n\nWork it out step by step: where is the counter after each call?\n",
	},
}

// exampleLesson is the lesson of a new course.
var exampleLesson = map[string]string{
	"de": `# Erste Schritte

Eine kurze Lektion als Beispiel: Ersetze sie durch deine eigene.

## Worum es geht

Ein Zähler merkt sich einen Stand und ändert ihn bei jedem Aufruf.

## Übungen

Schreib den Zähler und prüfe ihn mit ` + "`kurs check counter`" + `; danach beantworte das Quiz mit ` + "`kurs check counterquiz`" + `.
`,
	"en": `# First steps

A short lesson as an example: replace it with your own.

## What this is about

A counter remembers a count and changes it with every call.

## Exercises

Write the counter and check it with ` + "`kurs check counter`" + `; then answer the quiz with ` + "`kurs check counterquiz`" + `.
`,
}

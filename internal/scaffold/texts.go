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
// TODO(author): replace this example with the reference solution. Its API,
// the function New and the exported methods of the type New returns, is
// what the hidden tests call; after changing it, run
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
// TODO(author): Beschreibe die Aufgabe für die Lernenden.
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
// TODO(author): describe the task for the learners.
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
      "name": "TODO(author): seed/worked-example",
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

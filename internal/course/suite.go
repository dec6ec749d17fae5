package course

import (
	"bytes"
	"encoding/json"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/kurs-course/kurs/internal/harness"
)

// Suite is an exercise's testdata/suite.json: its hidden tests, and for a
// trace exercise with a generated driver the observed method and the
// description of random traces. It is the only type that reads the file.
type Suite struct {
	// Observe names the method whose result is compared after every call,
	// e.g. "State"; it takes no arguments.
	Observe string `json:"observe,omitempty"`
	// Generate describes the random traces; tests with "random": N draw N
	// of them.
	Generate *Generate `json:"generate,omitempty"`
	// Tests are the hidden tests, in the order they run.
	Tests []harness.Test `json:"tests"`
	// Titles holds each test's title by the test's name: each test's
	// "title" in suite.json, {"de": "…", "en": "…"}. The learner reads a
	// test by its title; the name stays the key that machines read. The
	// judge never needs a title, so Titles is not part of the JSON that the
	// checker passes on.
	Titles map[string]Text `json:"-"`
}

// suiteFile is the strict form of suite.json, each test with its title;
// docs/schema/suite.schema.json publishes it.
type suiteFile struct {
	Schema   string      `json:"$schema,omitempty"`
	Observe  string      `json:"observe,omitempty"`
	Generate *Generate   `json:"generate,omitempty"`
	Tests    []suiteTest `json:"tests"`
}

// suiteTest is one test of suite.json: the harness's test and its title.
type suiteTest struct {
	harness.Test
	Title Text `json:"title,omitempty"`
}

// UnmarshalJSONFrom reads suite.json with the options of the decoder, so
// that Decode reads the titles as strictly as the rest: an unknown key or
// a title that is not an object of texts is an error at its line.
func (s *Suite) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var f suiteFile
	if err := jsonv2.UnmarshalDecode(dec, &f); err != nil {
		return err
	}
	*s = Suite{Observe: f.Observe, Generate: f.Generate}
	if f.Tests != nil {
		s.Tests = make([]harness.Test, len(f.Tests))
	}
	for i, t := range f.Tests {
		s.Tests[i] = t.Test
		if t.Title != nil {
			if s.Titles == nil {
				s.Titles = map[string]Text{}
			}
			s.Titles[t.Name] = t.Title
		}
	}
	return nil
}

// TestTitle returns the title of the hidden test name in lang, else in
// English: a trace exercise's from its suite, a quiz case's its label
// ("Case 2"). It is "" for a test without one.
func (e *Exercise) TestTitle(name, lang string) string {
	if t, ok := e.Suite.Titles[name]; ok {
		return t.In(lang)
	}
	for _, t := range e.Suite.Tests {
		if t.Name == name && t.Case > 0 && t.Case <= len(e.Quiz) {
			return e.Quiz[t.Case-1].Label.In(lang)
		}
	}
	return ""
}

// Generate describes how random traces are drawn, as data:
//
//	"generate": {
//	  "new":   [{"int": [1, 4]}, {"int": [0, 6]}],
//	  "steps": [10, 49],
//	  "time":  {"step": [0, 3], "jump": [0, 7], "jump_chance": 0.125},
//	  "ops": [
//	    {"call": "Allow", "args": ["time"], "weight": 9,
//	     "then": {"when": "true", "calls": [{"call": "Success"}, {"call": "Failure", "args": ["time"]}]}},
//	    {"call": "Failure", "args": ["time"]}
//	  ]
//	}
type Generate struct {
	// New draws the constructor's arguments.
	New []Arg `json:"new"`
	// Steps is the least and the most number of operations per trace.
	Steps [2]int `json:"steps"`
	// Time is the trace's clock: it starts at 0 and never goes backwards.
	Time Clock `json:"time"`
	// Ops are the operations a trace is made of, drawn by weight.
	Ops []Op `json:"ops"`
}

// Clock says how the trace's time advances before each operation: by a
// whole number in Step, and with a chance of JumpChance by a further one in
// Jump (a pause).
type Clock struct {
	Step       [2]int  `json:"step"`
	Jump       [2]int  `json:"jump,omitzero"`
	JumpChance float64 `json:"jump_chance,omitempty"`
}

// Op is one kind of call in a random trace.
type Op struct {
	Call string `json:"call"`
	Args []Arg  `json:"args,omitempty"`
	// Weight is the operation's share of the draws; 0 means 1.
	Weight float64 `json:"weight,omitempty"`
	// Then, when the reference returns Then.When for this call, follows it
	// with one of Then.Calls at the same time: e.g. Allow, and if it says
	// "true", Success or Failure, as a client reports a call it made.
	Then *Then `json:"then,omitempty"`
}

// Then is a follow-up call. Each trace draws its own mix of the calls, so
// that some traces fail in bursts and others hardly at all.
type Then struct {
	When  string `json:"when"`
	Calls []Op   `json:"calls"`
}

// Arg is how one argument is drawn. In suite.json it is "time" (the
// clock), a number (always that number), {"int": [min, max]} (a whole number
// in the range) or {"one_of": [x, y, …]}.
type Arg struct {
	Time  bool
	Int   *[2]int
	OneOf []float64
}

// UnmarshalJSON reads the forms described at Arg.
func (a *Arg) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	var s string
	if json.Unmarshal(data, &s) == nil {
		if s != "time" {
			return fmt.Errorf("argument %q: want \"time\", a number, {\"int\": [min, max]} or {\"one_of\": [...]}", s)
		}
		*a = Arg{Time: true}
		return nil
	}
	var x float64
	if json.Unmarshal(data, &x) == nil {
		*a = Arg{OneOf: []float64{x}}
		return nil
	}
	var o struct {
		Int   *[2]int   `json:"int"`
		OneOf []float64 `json:"one_of"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return fmt.Errorf("argument %s: want \"time\", a number, {\"int\": [min, max]} or {\"one_of\": [...]}", data)
	}
	switch {
	case o.Int != nil && o.OneOf == nil:
		*a = Arg{Int: o.Int}
	case o.Int == nil && len(o.OneOf) > 0:
		*a = Arg{OneOf: o.OneOf}
	default:
		return fmt.Errorf("argument %s: give either int or one_of", data)
	}
	return nil
}

// MarshalJSON writes the forms described at Arg.
func (a Arg) MarshalJSON() ([]byte, error) {
	switch {
	case a.Time:
		return []byte(`"time"`), nil
	case a.Int != nil:
		return json.Marshal(map[string]any{"int": a.Int})
	case len(a.OneOf) == 1:
		return json.Marshal(a.OneOf[0])
	}
	return json.Marshal(map[string]any{"one_of": a.OneOf})
}

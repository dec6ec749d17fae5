package tracegen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Suite is what tracegen reads from an exercise's testdata/suite.json
// besides the tests themselves (which the harness reads).
type Suite struct {
	// Observe names the method whose result is compared after every call,
	// e.g. "State"; it takes no arguments.
	Observe string `json:"observe,omitempty"`
	// Generate describes the random traces; tests with "random": N draw N
	// of them.
	Generate *Generate `json:"generate,omitempty"`
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

// whole reports whether every value the argument can take is a whole
// number, as an int parameter needs.
func (a Arg) whole() bool {
	for _, x := range a.OneOf {
		if x != math.Trunc(x) {
			return false
		}
	}
	return true
}

// Mistake is one thing wrong with the description of random traces or the
// observed method, at a JSON path of suite.json ("generate.ops.1.call").
// Kind names the mistake; the i18n catalogs explain it
// ("validate.gen.KIND"), filled in from Args.
type Mistake struct {
	Path string
	Kind string
	Args []any
}

func (m Mistake) String() string { return fmt.Sprintf("%s: %s %v", m.Path, m.Kind, m.Args) }

// Mistakes is the error Files returns when the description does not fit
// the API.
type Mistakes []Mistake

func (ms Mistakes) Error() string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.String()
	}
	return "suite.json: " + strings.Join(s, "; ")
}

// Check returns what is wrong with s for api: the observed method and the
// description of random traces. An empty result means the driver can be
// generated.
func (s Suite) Check(api *API) []Mistake {
	var ms []Mistake
	add := func(path, kind string, args ...any) {
		ms = append(ms, Mistake{Path: path, Kind: kind, Args: args})
	}
	for _, p := range api.New {
		if !Passable(p.Type) {
			add("", "new_param", "Param", p.Name, "Type", p.Type)
		}
	}
	if s.Observe != "" {
		m, ok := api.Method(s.Observe)
		switch {
		case !ok:
			add("observe", "no_method", "Call", s.Observe)
		case len(m.Params) != 0 || m.Result == "" || m.Usable() != "":
			add("observe", "observe", "Call", s.Observe)
		}
	}
	g := s.Generate
	if g == nil {
		return ms
	}
	rng := func(path string, r [2]int) {
		if r[0] > r[1] || r[0] < 0 {
			add(path, "range", "Min", r[0], "Max", r[1])
		}
	}
	args := func(path, call string, ps []Param, as []Arg) {
		if len(as) != len(ps) {
			add(path, "arg_count", "Call", call, "Want", len(ps), "Got", len(as))
			return
		}
		for i, a := range as {
			p := fmt.Sprintf("%s.%d", path, i)
			if a.Int != nil && a.Int[0] > a.Int[1] {
				add(p+".int", "order", "Min", a.Int[0], "Max", a.Int[1])
			}
			if (ps[i].Type == Int || ps[i].Type == Int64) && !a.whole() {
				add(p, "whole", "Call", call, "Param", ps[i].Name)
			}
		}
	}
	args("generate.new", "New", api.New, g.New)
	rng("generate.steps", g.Steps)
	rng("generate.time.step", g.Time.Step)
	rng("generate.time.jump", g.Time.Jump)
	if g.Time.JumpChance < 0 || g.Time.JumpChance > 1 {
		add("generate.time.jump_chance", "chance")
	}
	if len(g.Ops) == 0 {
		add("generate.ops", "no_ops")
	}
	var op func(path string, o Op, nested bool)
	op = func(path string, o Op, nested bool) {
		m, ok := api.Method(o.Call)
		if !ok {
			add(path+".call", "no_method", "Call", o.Call)
			return
		}
		if why := m.Usable(); why != "" {
			add(path+".call", "unusable", "Call", o.Call, "What", why)
			return
		}
		if o.Weight < 0 {
			add(path+".weight", "weight")
		}
		args(path+".args", o.Call, m.Params, o.Args)
		if o.Then == nil {
			return
		}
		if nested {
			add(path+".then", "then_nested")
			return
		}
		if len(o.Then.Calls) == 0 {
			add(path+".then.calls", "then_empty")
		}
		for i, c := range o.Then.Calls {
			op(fmt.Sprintf("%s.then.calls.%d", path, i), c, true)
		}
	}
	for i, o := range g.Ops {
		op(fmt.Sprintf("generate.ops.%d", i), o, false)
	}
	return ms
}

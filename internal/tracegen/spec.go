package tracegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/kurs-course/kurs/internal/course"
)

// The description of random traces is part of suite.json, which the
// course package reads; tracegen uses its types.
type (
	// Suite is an exercise's suite.json.
	Suite = course.Suite
	// Generate describes how random traces are drawn.
	Generate = course.Generate
	// Op is one kind of call in a random trace.
	Op = course.Op
	// Arg is how one argument is drawn.
	Arg = course.Arg
)

// whole reports whether every value the argument can take is a whole
// number, as an int parameter needs.
func whole(a Arg) bool {
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
func Check(s Suite, api *API) []Mistake {
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
			if (ps[i].Type == Int || ps[i].Type == Int64) && !whole(a) {
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

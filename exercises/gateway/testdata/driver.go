// The test program of the exercise gateway: it drives the learner's
// gateway and the reference with dependencies that answer or fail as a
// trace says.
//
// Steps of a trace; each number says how one function behaves:
//
//	Call(p, f)                g.Call(primary, fallback)
//	Aggregate(p1, f1, p2, …)  g.Aggregate with the parts order, stock,
//	                          reviews, ratings, shipping (as many as pairs)
//
//	0  answers (primary: "primary" or the part's name; fallback: "fallback"
//	   or NAME-fallback)
//	1  fails: "", and an error of its own
//	2  fails, but returns a half answer ("partial" or NAME-partial) with
//	   its error
//	3  (fallback only) there is none: nil
//
// Each step's result is the functions that were called, in order, then
// what came back: the answer and degraded for Call, the answers and the
// degraded parts for Aggregate, or error(…) with every function whose error
// it wraps (after the other results if they are not empty, as they must be
// with an error). When a part of an Aggregate fails for good and the
// error's text names it, the name comes first, "error(stock: stock.primary)":
// the task promises an error that names the part, and no function's own
// error does (each says only "primary failed" or "fallback failed"). The
// notation has no words of either language, so that both read it. After
// each step the harness compares Degraded().
//
// It is built twice: with the learner's package, to answer, and with the
// reference in its place, to judge (see the harness package).
package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	ex "github.com/kurs-course/kurs/gateway"
	"github.com/kurs-course/kurs/internal/harness"
)

func main() {
	harness.Main(harness.Traces{
		Observe: "Degraded()",
		Package: "github.com/kurs-course/kurs/gateway",
		New:     newSubject,
		Random:  random,
	})
}

// partNames are the parts of Aggregate steps, in order: the lesson's
// order, stock and reviews, then two more.
var partNames = []string{"order", "stock", "reviews", "ratings", "shipping"}

// errs holds one error per function, so that a result can say whose
// errors it wraps. Their texts leave the part out, so that only the
// gateway's own words can name it.
var errs = func() map[string]error {
	m := map[string]error{}
	for _, n := range append([]string{""}, partNames...) {
		for _, role := range []string{"primary", "fallback"} {
			m[label(n, role)] = errors.New(role + " failed")
		}
	}
	return m
}()

func label(part, role string) string {
	if part == "" {
		return role
	}
	return part + "." + role
}

// part is a part of an Aggregate step, before it becomes the learner's or
// the reference's Part.
type part struct {
	name              string
	primary, fallback func() (string, error)
}

type subject struct {
	call      func(primary, fallback func() (string, error)) (string, bool, error)
	aggregate func([]part) (map[string]string, []string, error)
	degraded  func() int
	log       []string
}

func newSubject(_ []float64) harness.Subject {
	s := &subject{}
	g := ex.New()
	s.call, s.degraded = g.Call, g.Degraded
	s.aggregate = func(ps []part) (map[string]string, []string, error) {
		var ls []ex.Part
		for _, p := range ps {
			ls = append(ls, ex.Part{Name: p.name, Primary: p.primary, Fallback: p.fallback})
		}
		return g.Aggregate(ls)
	}
	return s
}

// fake returns a function that behaves as code says and logs its calls.
func (s *subject) fake(part, role string, code int) func() (string, error) {
	if code == 3 && role == "fallback" {
		return nil
	}
	l := label(part, role)
	answer := role
	if part != "" {
		answer = part
		if role == "fallback" {
			answer = part + "-fallback"
		}
	}
	return func() (string, error) {
		s.log = append(s.log, l)
		switch code {
		case 0:
			return answer, nil
		case 2:
			if part == "" {
				return "partial", errs[l]
			}
			return part + "-partial", errs[l]
		}
		return "", errs[l]
	}
}

func (s *subject) Do(call string, args []float64) string {
	s.log = nil
	code := func(i int) int {
		if i < len(args) {
			return int(args[i])
		}
		return 0
	}
	var result string
	switch call {
	case "Call":
		answer, degraded, err := s.call(s.fake("", "primary", code(0)), s.fake("", "fallback", code(1)))
		result = fmt.Sprintf("%s, %t", answer, degraded)
		switch {
		case err != nil && answer == "" && !degraded:
			result = whose(err, "")
		case err != nil:
			result += ", " + whose(err, "")
		}
	case "Aggregate":
		var ps []part
		for i := 0; 2*i+1 < len(args) && i < len(partNames); i++ {
			n := partNames[i]
			ps = append(ps, part{n, s.fake(n, "primary", code(2*i)), s.fake(n, "fallback", code(2*i+1))})
		}
		answers, degraded, err := s.aggregate(ps)
		// The part that fails for good: the first whose primary fails and
		// whose fallback is missing or fails too. An error whose text
		// names it shows the name first, as fmt.Errorf("%s: %w") would.
		named := ""
		for i, p := range ps {
			if code(2*i) != 0 && code(2*i+1) != 0 {
				if err != nil && strings.Contains(err.Error(), p.name) {
					named = p.name
				}
				break
			}
		}
		result = showMap(answers) + ", [" + strings.Join(degraded, " ") + "]"
		switch {
		case err != nil && len(answers) == 0 && len(degraded) == 0:
			result = whose(err, named)
		case err != nil:
			result += ", " + whose(err, named)
		}
	default:
		return "unknown step " + call
	}
	return "[" + strings.Join(s.log, " ") + "] → " + result
}

// whose names the functions whose errors err wraps, e.g.
// "error(primary+fallback)", after the part the error's text names, if
// any: "error(stock: stock.primary)".
func whose(err error, named string) string {
	var ls []string
	for l, e := range errs {
		if errors.Is(err, e) {
			ls = append(ls, l)
		}
	}
	if len(ls) == 0 {
		return fmt.Sprintf("error %q", err.Error())
	}
	slices.SortFunc(ls, func(a, b string) int { return order(a) - order(b) })
	if named != "" {
		named += ": "
	}
	return "error(" + named + strings.Join(ls, "+") + ")"
}

// order sorts labels as the parts and roles come.
func order(l string) int {
	n, role, ok := strings.Cut(l, ".")
	if !ok {
		n, role = "", l
	}
	i := slices.Index(partNames, n) + 1
	if role == "fallback" {
		return 2*i + 1
	}
	return 2 * i
}

func showMap(m map[string]string) string {
	if m == nil {
		return "nil"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k + ": " + m[k])
	}
	b.WriteString("}")
	return b.String()
}

func (s *subject) Observe() string { return strconv.Itoa(s.degraded()) }

// random returns a trace of calls and aggregates whose dependencies answer
// or fail at a rate of the trace's own.
func random(r *rand.Rand) harness.Trace {
	var tr harness.Trace
	failRate := r.Float64()
	primary := func() float64 {
		switch {
		case r.Float64() >= failRate:
			return 0
		case r.IntN(4) == 0:
			return 2
		}
		return 1
	}
	fallback := func() float64 {
		if r.IntN(3) == 0 {
			return 3
		}
		return primary()
	}
	rounds := 3 + r.IntN(15)
	// One step a round: room for all, so that the judge grows no slice.
	tr.Steps = make([]harness.Step, 0, rounds)
	for range rounds {
		if r.IntN(2) == 0 {
			tr.Steps = append(tr.Steps, harness.Step{Call: "Call", Args: []float64{primary(), fallback()}})
			continue
		}
		var args []float64
		for range 1 + r.IntN(len(partNames)) {
			args = append(args, primary(), fallback())
		}
		tr.Steps = append(tr.Steps, harness.Step{Call: "Aggregate", Args: args})
	}
	return tr
}

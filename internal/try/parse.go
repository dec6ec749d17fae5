package try

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/tracegen"
)

// MaxSteps bounds a trace typed by hand.
const MaxSteps = 200

// API is what a trace of an exercise may call: each method's names with
// the numbers of arguments it takes, as the exercise's hidden tests call
// them, and the numbers of arguments of New.
type API struct {
	calls map[string][]int
	news  []int
	// observed names what the driver looks at after every call, e.g.
	// "State": a trace may ask for it as a call of its own.
	observed []string
	// types holds the parameters' types as the reference solution
	// declares them, by call ("New" for the constructor); a call missing
	// here takes any number.
	types map[string][]string
}

// APIOf learns an exercise's calls from its fixed hidden tests: a trace
// typed by hand may call what they call, as they call it.
func APIOf(ex *course.Exercise) API {
	a := API{calls: map[string][]int{}}
	for _, t := range fixedTests(ex) {
		if !slices.Contains(a.news, len(t.New)) {
			a.news = append(a.news, len(t.New))
		}
		for _, s := range t.Steps {
			if !slices.Contains(a.calls[s.Call], len(s.Args)) {
				a.calls[s.Call] = append(a.calls[s.Call], len(s.Args))
			}
		}
	}
	slices.Sort(a.news)
	for _, n := range a.calls {
		slices.Sort(n)
	}
	a.observed = observedNames(observeOf(ex))
	a.types = typesOf(ex)
	return a
}

// typesOf returns the types of New's and the methods' parameters, as the
// exercise's reference solution declares them; nil when it cannot be read.
func typesOf(ex *course.Exercise) map[string][]string {
	sol, err := ex.Solution()
	if err != nil {
		return nil
	}
	api, err := tracegen.ParseAPI(sol)
	if err != nil || api == nil {
		return nil
	}
	types := func(ps []tracegen.Param) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.Type
		}
		return out
	}
	m := map[string][]string{"New": types(api.New)}
	for _, meth := range api.Methods {
		m[meth.Name] = types(meth.Params)
	}
	return m
}

// takesInt reports whether the nth parameter of call is an integer.
func (a API) takesInt(call string, n int) bool {
	ts := a.types[call]
	return n < len(ts) && (ts[n] == tracegen.Int || ts[n] == tracegen.Int64)
}

// maxExact is the largest whole number a trace carries exactly: arguments
// travel as float64 (harness.Step.Args), whose 53-bit mantissa rounds
// larger ones.
const maxExact = 1 << 53

// ErrEmpty is the mistake of a trace with no call at all.
var ErrEmpty = errors.New("the trace is empty")

// observedNames returns the names of the calls in an observation such as
// "State(), now()": State, now.
func observedNames(observe string) []string {
	var out []string
	for part := range strings.SplitSeq(observe, ",") {
		name, ok := strings.CutSuffix(strings.TrimSpace(part), "()")
		if ok && name != "" {
			out = append(out, name)
		}
	}
	return out
}

// IsObservation reports whether call is one of what the exercise looks at
// after every call, such as State: a step that changes nothing and shows
// the state after the step before it.
func (a API) IsObservation(call string) bool {
	_, isCall := a.calls[call]
	return !isCall && slices.Contains(a.observed, call)
}

// fixedTests returns the exercise's hidden tests that are one written
// trace each: not random ones, not a quiz's cases.
func fixedTests(ex *course.Exercise) []harness.Test {
	var out []harness.Test
	for _, t := range ex.Suite.Tests {
		if t.Random == 0 && t.Case == 0 {
			out = append(out, t)
		}
	}
	return out
}

// names returns the calls' names, sorted.
func (a API) names() string {
	var out []string
	for n := range a.calls {
		out = append(out, n)
	}
	for _, n := range a.observed {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// Example returns a trace to start from, as a learner would type it: the
// one of the exercise's first fixed hidden test, whose steps the task's
// worked example usually walks through. It is empty when the exercise has
// no such test.
func Example(ex *course.Exercise) string { return example(ex, MaxSteps) }

// ShortExample returns the start of Example: New and the first two calls,
// short enough for a sentence that explains how a trace is written.
func ShortExample(ex *course.Exercise) string { return example(ex, 2) }

// example returns the first fixed test's trace up to its nth call.
func example(ex *course.Exercise, n int) string {
	tests := fixedTests(ex)
	if len(tests) == 0 {
		return ""
	}
	t := tests[0]
	calls := []string{harness.FormatCall("New", t.New)}
	for _, s := range t.Steps[:min(len(t.Steps), n)] {
		calls = append(calls, harness.FormatCall(s.Call, s.Args))
	}
	return strings.Join(calls, " ")
}

// SyntaxError is a mistake in a typed trace: where it is and a message
// that says what, for the reader's language.
type SyntaxError struct {
	// Col is the 1-based column of the mistake, counted in characters.
	Col int
	// ID and Args are the message and its arguments (name, value, …) for
	// i18n.Printer.T.
	ID   string
	Args []any
}

// Message returns what is wrong, in p's language, without the column.
func (e *SyntaxError) Message(p *i18n.Printer) string { return p.T(e.ID, e.Args...) }

// Error returns the mistake with its column, in English.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("column %d: %s", e.Col, e.Message(i18n.New("en")))
}

// Parse parses a trace such as "New(3, 5) Failure(0) Allow(6)": calls
// separated by spaces, New first, each with numbers as arguments, strictly
// as the exercise's API has them. A mistake is a *SyntaxError.
func Parse(s string, a API) (harness.Trace, error) {
	var tr harness.Trace
	i := 0
	col := func(i int) int { return utf8.RuneCountInString(s[:i]) + 1 }
	fail := func(i int, id string, kv ...any) (harness.Trace, error) {
		return harness.Trace{}, &SyntaxError{col(i), id, kv}
	}
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
	}
	// wantArg is the mistake of a call whose parentheses hold no number
	// where one belongs: it says what the call takes.
	wantArg := func(i int, call string, want []int) (harness.Trace, error) {
		switch {
		case len(want) == 0:
			return fail(i, "try.err_want_arg_any", "Call", call)
		case slices.Equal(want, []int{0}):
			return fail(i, "try.err_want_close", "Call", call)
		case want[0] == 0:
			return fail(i, "try.err_want_arg_or_close", "Call", call, "Want", arities(want))
		}
		// One number wanted takes its own plural form; "1 | 2" the plural.
		count := 2
		if len(want) == 1 {
			count = want[0]
		}
		return fail(i, "try.err_want_arg", "Call", call, "Want", arities(want), "Count", count)
	}
	skip()
	if i == len(s) {
		return harness.Trace{}, ErrEmpty
	}
	for first := true; ; first = false {
		skip()
		if i == len(s) {
			return tr, nil
		}
		start := i
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.') {
				break
			}
			i += size
		}
		name := s[start:i]
		if name == "" {
			if first {
				return fail(start, "try.err_new")
			}
			return fail(start, "try.err_call_expected")
		}
		if first != (name == "New") {
			if first {
				return fail(start, "try.err_new")
			}
			return fail(start, "try.err_new_again")
		}
		if !first {
			if _, ok := a.calls[name]; !ok && !a.IsObservation(name) {
				return fail(start, "try.err_unknown", "Call", name, "Known", a.names())
			}
			if len(tr.Steps) == MaxSteps {
				return fail(start, "try.err_long", "Max", MaxSteps)
			}
		}
		if i == len(s) || s[i] != '(' {
			return fail(i, "try.err_want_paren", "Call", name)
		}
		i++
		want := a.news
		switch {
		case !first && a.IsObservation(name):
			want = []int{0}
		case !first:
			want = a.calls[name]
		}
		var args []float64
		for {
			skip()
			if i < len(s) && s[i] == ')' && len(args) == 0 {
				break
			}
			numStart := i
			for i < len(s) && strings.IndexByte("+-0123456789.eE", s[i]) >= 0 {
				i++
			}
			text := s[numStart:i]
			if text == "" {
				if len(args) == 0 {
					return wantArg(numStart, name, want)
				}
				return fail(numStart, "try.err_want_number")
			}
			var x float64
			if a.takesInt(name, len(args)) {
				// Parsed as an integer, never through float64: a fraction
				// or an exponent is a mistake, not rounded away.
				n, err := strconv.ParseInt(text, 10, 64)
				var ne *strconv.NumError
				switch {
				case errors.As(err, &ne) && ne.Err == strconv.ErrRange, err == nil && (n > maxExact || n < -maxExact):
					return fail(numStart, "try.err_int_range", "Text", text, "Max", maxExact)
				case err != nil:
					if _, ferr := strconv.ParseFloat(text, 64); ferr != nil {
						return fail(numStart, "try.err_number", "Text", text)
					}
					return fail(numStart, "try.err_not_int", "Call", name, "Text", text)
				}
				x = float64(n)
			} else {
				f, err := strconv.ParseFloat(text, 64)
				if err != nil || math.IsInf(f, 0) {
					return fail(numStart, "try.err_number", "Text", text)
				}
				x = f
			}
			args = append(args, x)
			skip()
			if i < len(s) && s[i] == ',' {
				i++
				continue
			}
			if i < len(s) && s[i] == ')' {
				break
			}
			return fail(i, "try.err_want_comma", "Call", name)
		}
		i++ // the ")"
		if len(want) > 0 && !slices.Contains(want, len(args)) {
			// One number wanted takes its own plural form; "1 | 2" the plural.
			count := 2
			if len(want) == 1 {
				count = want[0]
			}
			return fail(start, "try.err_arity", "Call", name, "Want", arities(want), "Got", len(args), "Count", count)
		}
		if first {
			tr.New = args
		} else {
			tr.Steps = append(tr.Steps, harness.Step{Call: name, Args: args})
		}
		if i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
			return fail(i, "try.err_want_space")
		}
	}
}

// arities writes the numbers of arguments a call takes: "2" or "1 | 2".
func arities(n []int) string {
	s := make([]string, len(n))
	for i, x := range n {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " | ")
}

// observeOf returns what the exercise's driver observes after each call,
// e.g. "State()": as its suite says for a generated driver, else from the
// driver's source, the Observe of its harness.Traces.
func observeOf(ex *course.Exercise) string {
	if ex.Suite.Observe != "" {
		return ex.Suite.Observe
	}
	driver, _, err := ex.Tests()
	if err != nil {
		return ""
	}
	fset := token.NewFileSet()
	observe := ""
	for _, f := range driver {
		file, err := parser.ParseFile(fset, f.Name, f.Data, 0)
		if err != nil {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok || observe != "" {
				return observe == ""
			}
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Observe" {
				if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					observe, _ = strconv.Unquote(lit.Value)
				}
			}
			return true
		})
	}
	return observe
}

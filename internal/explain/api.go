package explain

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/spell"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// apiPatterns are the compiler's words for the API check's usual
// findings, compiled on first use: kurs starts without them. Each line has
// no position: checker.compileProblem drops the API check's own.
var apiPatterns = sync.OnceValue(func() (p struct{ signature, noMethod, varType, constant, undefined *regexp.Regexp }) {
	// cannot use (*CircuitBreaker).Allow (value of type func(b
	// *CircuitBreaker, now int64) bool) as func(*CircuitBreaker, int)
	// bool value in variable declaration
	p.signature = regexp.MustCompile(`^cannot use (?:\((\*?)(\w+)\)\.)?(\w+) \(value of type (func.*)\) as (func.*) value in variable declaration$`)
	// (*CircuitBreaker).State undefined (type *CircuitBreaker has no
	// method State, but does have method state)
	p.noMethod = regexp.MustCompile(`^\(\*?\w+\)\.\w+ undefined \(type (\*?\w+) has no (?:field or )?method (\w+)(?:, but does have (field|method) (\w+))?\)$`)
	// cannot use &Answer (value of type *[2]string) as *[4]string value
	// in variable declaration
	p.varType = regexp.MustCompile(`^cannot use &(\w+) \(value of type \*(.*)\) as \*(.*) value in variable declaration$`)
	// invalid operation: cannot take address of Answer (untyped string
	// constant "AB")
	p.constant = regexp.MustCompile(`^invalid operation: cannot take address of (\w+) \((?:untyped )?\w+ constant\b.*\)$`)
	// undefined: New
	p.undefined = regexp.MustCompile(`^undefined: (\w+)$`)
	return p
})

// apiLines rewrites the compiler's lines about the API check in the
// learner's words: which function or method is missing, with a near miss
// among the names the learner declared and where it is declared (see
// checker.Problem.Declared and DeclaredAt), and which signature the
// learner wrote beside the one the exercise expects, with the receiver
// left out as the learner declared it. A line it does not know stays as
// the compiler wrote it.
func apiLines(p *i18n.Printer, detail string, declared []string, at map[string]string) string {
	return apiLinesFor(p, Learner, detail, declared, at)
}

// apiLinesFor is apiLines in the words for aud: to a teacher they speak
// about the submission ("the submission declares Nwe …; the exercise
// expects New") where the learner is told what to do ("rename it to
// New").
func apiLinesFor(p *i18n.Printer, aud Audience, detail string, declared []string, at map[string]string) string {
	T := wording(p, aud, "")
	re := apiPatterns()
	lines := strings.Split(detail, "\n")
	for i, l := range lines {
		if m := re.signature.FindStringSubmatch(l); m != nil {
			// A method expression's type has the receiver first.
			method := m[2] != ""
			have, want := bareFunc(m[4], method), bareFunc(m[5], method)
			key := "problem.api_func_signature"
			if method {
				key = "problem.api_method_signature"
			}
			if have != "" && want != "" {
				lines[i] = T(key, "Name", m[3], "Type", m[1]+m[2], "Have", have, "Want", want)
			}
		} else if m := re.noMethod.FindStringSubmatch(l); m != nil {
			lines[i] = T("problem.api_no_method", "Name", m[2], "Type", m[1])
			// A method found in another case is the one meant (see
			// nearMissLine); a field of that name (state for State) is
			// no misspelt method, and gets no note of its own.
			prefix := strings.TrimPrefix(m[1], "*") + "."
			if m[3] == "method" {
				lines[i] += " " + caseNote(p, T, m[4], at[prefix+m[4]])
			} else {
				lines[i] += nearNote(p, T, m[2], prefix, declared, at)
			}
		} else if m := re.varType.FindStringSubmatch(l); m != nil {
			lines[i] = T("problem.api_var_type", "Name", m[1], "Have", m[2], "Want", m[3])
		} else if m := re.constant.FindStringSubmatch(l); m != nil {
			lines[i] = T("problem.api_not_var", "Name", m[1])
		} else if m := re.undefined.FindStringSubmatch(l); m != nil {
			lines[i] = T("problem.api_undefined", "Name", m[1]) + nearNote(p, T, m[1], "", declared, at)
		}
	}
	// The compiler names a missing type at each of its uses in kurs's
	// API file: the learner reads of it once.
	seen := map[string]bool{}
	lines = slices.DeleteFunc(lines, func(l string) bool {
		dup := seen[l]
		seen[l] = true
		return dup
	})
	return strings.Join(lines, "\n")
}

// caseNote is the note on a name the learner wrote in another case than
// the exercise's (state for State), with where it is declared when at
// says so.
func caseNote(p *i18n.Printer, T func(string, ...any) string, other, at string) string {
	if at == "" {
		return T("problem.api_case", "Other", other)
	}
	return T("problem.api_case_at", "Other", other, "At", textsafe.Line(p, at, textsafe.ValueMax))
}

// nearMissLine returns the name that an API line of the compiler says is
// missing, and the declared name (as in checker.Problem.Declared:
// "Type.Method" for a method) that is its near miss, or "" for either.
// A method the compiler found in another case (state for State) is the
// one meant; a field so found (state) is less likely meant than a method
// with a typo (Stat).
func nearMissLine(l string, declared []string) (name, near string) {
	re := apiPatterns()
	if m := re.noMethod.FindStringSubmatch(l); m != nil {
		prefix := strings.TrimPrefix(m[1], "*") + "."
		if m[3] == "method" {
			if slices.Contains(declared, prefix+m[4]) {
				return m[2], prefix + m[4]
			}
			return m[2], ""
		}
		return m[2], closest(m[2], prefix, declared)
	}
	if m := re.undefined.FindStringSubmatch(l); m != nil {
		return m[1], closest(m[1], "", declared)
	}
	return "", ""
}

// nearMissAt returns where the first near miss of a name the API check
// missed is declared in the learner's files ("circuitbreaker/cb.go", 12),
// for the page to mark that line; "" and 0 when there is none.
func nearMissAt(pr *checker.Problem) (file string, line int) {
	if pr == nil || pr.Kind != checker.ProblemAPI {
		return "", 0
	}
	for l := range strings.SplitSeq(pr.Detail, "\n") {
		if _, near := nearMissLine(l, pr.Declared); near != "" {
			// The line follows the last colon: a file's name may hold one.
			at := pr.DeclaredAt[near]
			i := strings.LastIndex(at, ":")
			if line, err := strconv.Atoi(at[i+1:]); i > 0 && err == nil && line > 0 {
				return at[:i], line
			}
			return "", 0
		}
	}
	return "", 0
}

// closest returns the declared name (with its prefix) closest to the
// missing name, among those that begin with prefix ("T." for the methods
// of T, "" for package-level names), or "" when no name is close: a
// suggestion must be a likely typo, not any other name.
func closest(name, prefix string, declared []string) string {
	best, bestD := "", -1
	for _, d := range declared {
		other, ok := strings.CutPrefix(d, prefix)
		if !ok || other == name || (prefix == "" && strings.Contains(other, ".")) {
			continue
		}
		if dist := spell.Distance(name, other); dist <= spell.Slips(name) && (bestD < 0 || dist < bestD) {
			best, bestD = d, dist
		}
	}
	return best
}

// nearNote returns the note on the learner's name closest to the missing
// name (see closest), with where it is declared when at says so: " (you
// wrote Nwe in cb/cb.go:12; rename it to New)", naming the learner's
// spelling as theirs and the expected one as the goal, or " (there is
// new …)" for an exported name the learner wrote in lower case. It
// returns "" when no name is close.
func nearNote(p *i18n.Printer, T func(string, ...any) string, name, prefix string, declared []string, at map[string]string) string {
	best := closest(name, prefix, declared)
	if best == "" {
		return ""
	}
	where := textsafe.Line(p, at[best], textsafe.ValueMax)
	other := strings.TrimPrefix(best, prefix)
	key := "problem.api_near"
	if strings.EqualFold(other, name) && !token.IsExported(other) && token.IsExported(name) {
		key = "problem.api_case"
	}
	if where != "" {
		key += "_at"
	}
	// German renames a method ("die Methode") as "sie", anything else
	// as "es".
	return " " + T(key, "Other", other, "Name", name, "At", where, "Method", prefix != "")
}

// bareFunc returns the function type typ without parameter and result
// names, as the exercise's expectation is written, so that the two line
// up; a method expression's type (method) loses its first parameter, the
// receiver. It returns "" if typ is no function type.
func bareFunc(typ string, method bool) string {
	e, err := parser.ParseExpr(typ)
	if err != nil {
		return ""
	}
	ft, ok := e.(*ast.FuncType)
	if !ok || ft.Params == nil {
		return ""
	}
	ft.Params.List = unnamed(ft.Params.List)
	if method {
		if len(ft.Params.List) == 0 {
			return ""
		}
		ft.Params.List = ft.Params.List[1:]
	}
	if ft.Results != nil {
		ft.Results.List = unnamed(ft.Results.List)
	}
	var b bytes.Buffer
	if err := printer.Fprint(&b, token.NewFileSet(), ft); err != nil {
		return ""
	}
	return b.String()
}

// unnamed returns fields as one field per name, without the names.
func unnamed(fields []*ast.Field) []*ast.Field {
	var out []*ast.Field
	for _, f := range fields {
		for range max(1, len(f.Names)) {
			out = append(out, &ast.Field{Type: f.Type})
		}
	}
	return out
}

package explain

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
)

// The compiler's lines about the API check read as what the learner's
// code lacks, in the learner's language; what the rewriting does not
// know, and the learner's own errors, stay as the compiler wrote them.
func TestAPILines(t *testing.T) {
	en, de := i18n.New("en"), i18n.New("de")
	cases := []struct{ in, en, de string }{
		{"cannot use (*CircuitBreaker).Allow (value of type func(b *CircuitBreaker, now int64) bool) as func(*CircuitBreaker, int) bool value in variable declaration",
			"method Allow of *CircuitBreaker: yours is func(int64) bool, the exercise expects func(int) bool",
			"Methode Allow von *CircuitBreaker: deine ist func(int64) bool, die Übung erwartet func(int) bool"},
		{"cannot use (Pool).Do (value of type func(p Pool, a, b int, f func() error) (int, error)) as func(Pool, int, int, func() error) (int, error) value in variable declaration",
			"method Do of Pool: yours is func(int, int, func() error) (int, error), the exercise expects func(int, int, func() error) (int, error)",
			"Methode Do von Pool: deine ist func(int, int, func() error) (int, error), die Übung erwartet func(int, int, func() error) (int, error)"},
		{"cannot use (*Bucket).Allow (value of type func(b, c *Bucket) bool) as func(*Bucket) bool value in variable declaration",
			"method Allow of *Bucket: yours is func(*Bucket) bool, the exercise expects func() bool",
			"Methode Allow von *Bucket: deine ist func(*Bucket) bool, die Übung erwartet func() bool"},
		{"cannot use New (value of type func(threshold int) *CircuitBreaker) as func(int, int) *CircuitBreaker value in variable declaration",
			"function New: yours is func(int) *CircuitBreaker, the exercise expects func(int, int) *CircuitBreaker",
			"Funktion New: deine ist func(int) *CircuitBreaker, die Übung erwartet func(int, int) *CircuitBreaker"},
		{"(*CircuitBreaker).State undefined (type *CircuitBreaker has no method State)",
			"method State of *CircuitBreaker is missing",
			"Methode State von *CircuitBreaker fehlt"},
		{"(*CircuitBreaker).State undefined (type *CircuitBreaker has no method State, but does have method state)",
			"method State of *CircuitBreaker is missing (there is state: Go tells upper from lower case, and only a name with a capital letter is exported)",
			"Methode State von *CircuitBreaker fehlt (es gibt state: Go unterscheidet Groß- und Kleinschreibung, und nur ein Name mit großem Anfangsbuchstaben ist exportiert)"},
		{"cannot use &Answer (value of type *[2]string) as *[4]string value in variable declaration",
			"variable Answer: yours has the type [2]string, the exercise expects [4]string",
			"Variable Answer: deine hat den Typ [2]string, die Übung erwartet [4]string"},
		{"cannot use (*Pool).Acquire (value of type func(p *Pool, n, m int) (ok bool)) as func(*Pool, int) bool value in variable declaration",
			"method Acquire of *Pool: yours is func(int, int) bool, the exercise expects func(int) bool",
			"Methode Acquire von *Pool: deine ist func(int, int) bool, die Übung erwartet func(int) bool"},
		{`invalid operation: cannot take address of Answer (untyped string constant "AB")`,
			"Answer is a constant: the exercise expects a variable (var Answer = …)",
			"Answer ist eine Konstante: Die Übung erwartet eine Variable (var Answer = …)"},
		{"undefined: New",
			"New is missing: the exercise expects a declaration of exactly this name",
			"New fehlt: Die Übung erwartet eine Deklaration mit genau diesem Namen"},
		// The learner's own errors keep their position and words.
		{"circuitbreaker/cb.go:12:2: undefined: closd", "circuitbreaker/cb.go:12:2: undefined: closd", "circuitbreaker/cb.go:12:2: undefined: closd"},
		{"too many errors", "too many errors", "too many errors"},
	}
	for _, c := range cases {
		assert.Equal(t, c.en, apiLines(en, c.in, nil, nil), c.in)
		assert.Equal(t, c.de, apiLines(de, c.in, nil, nil), c.in)
	}
}

// A missing name points at the learner's near miss: a slip of one letter,
// two swapped letters, another case; a name that is merely different, or
// a method of another type, is no near miss.
func TestAPILinesNearMiss(t *testing.T) {
	en, de := i18n.New("en"), i18n.New("de")
	undefined := "undefined: New"
	noMethod := "(*CircuitBreaker).State undefined (type *CircuitBreaker has no method State)"
	cases := []struct {
		in       string
		declared []string
		en, de   string
	}{
		{undefined, []string{"CircuitBreaker", "CircuitBreaker.Allow", "Nwe"},
			"New is missing: the exercise expects a declaration of exactly this name (you wrote Nwe; rename it to New)",
			"New fehlt: Die Übung erwartet eine Deklaration mit genau diesem Namen (du hast Nwe geschrieben; benenne es in New um)"},
		{undefined, []string{"NEw"},
			"New is missing: the exercise expects a declaration of exactly this name (you wrote NEw; rename it to New)",
			"New fehlt: Die Übung erwartet eine Deklaration mit genau diesem Namen (du hast NEw geschrieben; benenne es in New um)"},
		{undefined, []string{"Ne"},
			"New is missing: the exercise expects a declaration of exactly this name (you wrote Ne; rename it to New)",
			"New fehlt: Die Übung erwartet eine Deklaration mit genau diesem Namen (du hast Ne geschrieben; benenne es in New um)"},
		// An exported name in lower case is not exported: the note says why.
		{undefined, []string{"new", "Nwe"},
			"New is missing: the exercise expects a declaration of exactly this name (there is new: Go tells upper from lower case, and only a name with a capital letter is exported)",
			"New fehlt: Die Übung erwartet eine Deklaration mit genau diesem Namen (es gibt new: Go unterscheidet Groß- und Kleinschreibung, und nur ein Name mit großem Anfangsbuchstaben ist exportiert)"},
		{undefined, []string{"Open", "Make", "CircuitBreaker.New", "Nw.x"},
			"New is missing: the exercise expects a declaration of exactly this name",
			"New fehlt: Die Übung erwartet eine Deklaration mit genau diesem Namen"},
		{noMethod, []string{"CircuitBreaker.Stat", "State", "Other.State"},
			"method State of *CircuitBreaker is missing (you wrote Stat; rename it to State)",
			"Methode State von *CircuitBreaker fehlt (du hast Stat geschrieben; benenne sie in State um)"},
		{noMethod, []string{"CircuitBreaker.Status", "CircuitBreaker.Staet"},
			"method State of *CircuitBreaker is missing (you wrote Staet; rename it to State)",
			"Methode State von *CircuitBreaker fehlt (du hast Staet geschrieben; benenne sie in State um)"},
		{noMethod, []string{"State", "Other.State", "CircuitBreaker.Status"},
			"method State of *CircuitBreaker is missing",
			"Methode State von *CircuitBreaker fehlt"},
		// Two letters off is close only in a longer name.
		{"undefined: Threshold", []string{"Treshhold"},
			"Threshold is missing: the exercise expects a declaration of exactly this name (you wrote Treshhold; rename it to Threshold)",
			"Threshold fehlt: Die Übung erwartet eine Deklaration mit genau diesem Namen (du hast Treshhold geschrieben; benenne es in Threshold um)"},
		{"(*CircuitBreaker).Success undefined (type *CircuitBreaker has no method Success)", []string{"CircuitBreaker.Succeed"},
			"method Success of *CircuitBreaker is missing",
			"Methode Success von *CircuitBreaker fehlt"},
	}
	for _, c := range cases {
		assert.Equal(t, c.en, apiLines(en, c.in, c.declared, nil), "%s %v", c.in, c.declared)
		assert.Equal(t, c.de, apiLines(de, c.in, c.declared, nil), "%s %v", c.in, c.declared)
	}
}

// The compiler's own note on a name in another case wins when it found a
// method; a field of that name yields to a method with a typo, and is no
// hint of its own.
func TestAPILinesNearMissOrCase(t *testing.T) {
	en := i18n.New("en")
	field := "(*CircuitBreaker).State undefined (type *CircuitBreaker has no field or method State, but does have field state)"
	method := "(*CircuitBreaker).State undefined (type *CircuitBreaker has no method State, but does have method state)"
	declared := []string{"CircuitBreaker.Allow", "CircuitBreaker.Stat"}
	assert.Equal(t, "method State of *CircuitBreaker is missing (you wrote Stat; rename it to State)", apiLines(en, field, declared, nil))
	assert.Equal(t, "method State of *CircuitBreaker is missing", apiLines(en, field, nil, nil), "a field state is no misspelt method")
	assert.Equal(t, "method State of *CircuitBreaker is missing (there is state: Go tells upper from lower case, and only a name with a capital letter is exported)", apiLines(en, method, declared, nil))
}

// Where the near miss is declared is named in the note, in both languages,
// and NearMissAt gives the page that line to mark; a name that is no near
// miss has no place.
func TestNearMissWhere(t *testing.T) {
	en, de := i18n.New("en"), i18n.New("de")
	detail := "undefined: New\n(*CircuitBreaker).State undefined (type *CircuitBreaker has no method State)"
	declared := []string{"CircuitBreaker", "CircuitBreaker.Stat", "Nwe"}
	at := map[string]string{"CircuitBreaker": "cb/types.go:3", "CircuitBreaker.Stat": "cb/cb.go:21", "Nwe": "cb/cb.go:16"}
	assert.Equal(t, "New is missing: the exercise expects a declaration of exactly this name (you wrote Nwe in cb/cb.go:16; rename it to New)\n"+
		"method State of *CircuitBreaker is missing (you wrote Stat in cb/cb.go:21; rename it to State)", apiLines(en, detail, declared, at))
	assert.Equal(t, "New fehlt: Die Übung erwartet eine Deklaration mit genau diesem Namen (in cb/cb.go:16 steht Nwe; benenne es in New um)\n"+
		"Methode State von *CircuitBreaker fehlt (in cb/cb.go:21 steht Stat; benenne sie in State um)", apiLines(de, detail, declared, at),
		"German renames a function as es, a method (die Methode) as sie")
	assert.Equal(t, "New is missing: the exercise expects a declaration of exactly this name (there is new in cb/cb.go:5: Go tells upper from lower case, and only a name with a capital letter is exported)",
		apiLines(en, "undefined: New", []string{"new"}, map[string]string{"new": "cb/cb.go:5"}))

	// To a teacher the lines speak about the submission, and tell no one
	// to rename anything or call a signature theirs.
	sig := "cannot use (*CircuitBreaker).Allow (value of type func(b *CircuitBreaker, now int64) bool) as func(*CircuitBreaker, int) bool value in variable declaration"
	assert.Equal(t, "New is missing: the exercise expects a declaration of exactly this name (the submission declares Nwe in cb/cb.go:16; the exercise expects New)\n"+
		"method State of *CircuitBreaker is missing (the submission declares Stat in cb/cb.go:21; the exercise expects State)", apiLinesFor(en, Teacher, detail, declared, at))
	assert.Equal(t, "New fehlt: Die Übung erwartet eine Deklaration mit genau diesem Namen (die Abgabe deklariert Nwe in cb/cb.go:16; die Übung erwartet New)\n"+
		"Methode State von *CircuitBreaker fehlt (die Abgabe deklariert Stat in cb/cb.go:21; die Übung erwartet State)", apiLinesFor(de, Teacher, detail, declared, at))
	assert.Equal(t, "method Allow of *CircuitBreaker: the submission has func(int64) bool, the exercise expects func(int) bool", apiLinesFor(en, Teacher, sig, nil, nil))
	assert.Equal(t, "Methode Allow von *CircuitBreaker: in der Abgabe func(int64) bool, die Übung erwartet func(int) bool", apiLinesFor(de, Teacher, sig, nil, nil))
	assert.Equal(t, "variable Answer: the submission declares it as [2]string, the exercise expects [4]string",
		apiLinesFor(en, Teacher, "cannot use &Answer (value of type *[2]string) as *[4]string value in variable declaration", nil, nil))

	pr := &checker.Problem{Kind: checker.ProblemAPI, Detail: detail, Declared: declared, DeclaredAt: at}
	file, line := nearMissAt(pr)
	assert.Equal(t, "cb/cb.go", file)
	assert.Equal(t, 16, line, "the first line's near miss")
	file, line = Position(&checker.Result{Exercise: "circuitbreaker", Status: checker.Error, Problem: pr})
	assert.Equal(t, "cb/cb.go", file, "an annotation, JUnit and the page stand at the misspelling")
	assert.Equal(t, 16, line)
	pr.Detail = "(*CircuitBreaker).Success undefined (type *CircuitBreaker has no method Success)"
	file, line = nearMissAt(pr)
	assert.Equal(t, "", file, "no near miss of Success")
	assert.Zero(t, line)
	pr.Detail = "undefined: New"
	pr.DeclaredAt = map[string]string{"Nwe": "cb/we:ird.go:9"}
	file, line = nearMissAt(pr)
	assert.Equal(t, "cb/we:ird.go", file, "a colon in the file's name")
	assert.Equal(t, 9, line)
	pr.Kind, pr.Detail = checker.ProblemCompile, detail
	_, line = nearMissAt(pr)
	assert.Zero(t, line, "a compile problem's lines have their own positions")
}

// A method written in lower case is named with its place, which the page
// marks; a type missing at each of its uses in kurs's API file is named
// once.
func TestAPILinesCaseWhereAndOnce(t *testing.T) {
	en := i18n.New("en")
	method := "(*CircuitBreaker).Allow undefined (type *CircuitBreaker has no method Allow, but does have method allow)"
	declared := []string{"CircuitBreaker", "CircuitBreaker.allow"}
	at := map[string]string{"CircuitBreaker": "cb/cb.go:3", "CircuitBreaker.allow": "cb/cb.go:24"}
	assert.Equal(t, "method Allow of *CircuitBreaker is missing (there is allow in cb/cb.go:24: Go tells upper from lower case, and only a name with a capital letter is exported)", apiLines(en, method, declared, at))
	file, line := nearMissAt(&checker.Problem{Kind: checker.ProblemAPI, Detail: method, Declared: declared, DeclaredAt: at})
	assert.Equal(t, "cb/cb.go", file)
	assert.Equal(t, 24, line)

	five := strings.Repeat("undefined: CircuitBreaker\n", 4) + "undefined: CircuitBreaker"
	got := apiLines(en, five, []string{"CircuitBreakr"}, map[string]string{"CircuitBreakr": "cb/cb.go:3"})
	assert.Equal(t, "CircuitBreaker is missing: the exercise expects a declaration of exactly this name (you wrote CircuitBreakr in cb/cb.go:3; rename it to CircuitBreaker)", got)
}

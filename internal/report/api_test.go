package report

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
		assert.Equal(t, c.en, apiLines(en, c.in), c.in)
		assert.Equal(t, c.de, apiLines(de, c.in), c.in)
	}
}

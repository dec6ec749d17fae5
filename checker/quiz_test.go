package checker_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
)

// quizFiles are learner's files of bulkheadquiz (whose right answers are
// D and A), each with whether its answers are constants that the checker
// gives the judge itself.
var quizFiles = []struct {
	name     string
	constant bool
	files    map[string]string
}{
	{"literal", true, map[string]string{"a.go": `var Answer = [2]string{"D", "A"}`}},
	{"lower case with spaces", true, map[string]string{"a.go": `var Answer = [2]string{" d ", "a	"}`}},
	{"wrong", true, map[string]string{"a.go": `var Answer = [2]string{"B", "A"}`}},
	{"empty", true, map[string]string{"a.go": `var Answer [2]string`}},
	{"one left empty", true, map[string]string{"a.go": `var Answer = [2]string{"D"}`}},
	{"full text", true, map[string]string{"a.go": `var Answer = [2]string{"D Feste, getrennte Pools", "a"}`}},
	{"constants", true, map[string]string{"a.go": "const (\n\tfirst  = \"D\"\n\tsecond = \"A\"\n)\n\nvar Answer = [2]string{first, second}"}},
	{"typed constants", true, map[string]string{"a.go": "type letter string\n\nconst (\n\tD letter = \"D\"\n\tA letter = \"A\"\n)\n\nvar Answer = [2]string{string(D), string(A)}"}},
	{"iota", true, map[string]string{"a.go": "const (\n\ta = 'A' + iota\n\tb\n\tc\n\td\n)\n\nvar Answer = [2]string{string(rune(d)), string(rune(a))}"}},
	{"keyed, any length", true, map[string]string{"a.go": `var Answer = [...]string{1: "A", 0: "D"}`}},
	{"typed, escaped", true, map[string]string{"a.go": `var Answer [2]string = ([2]string{"\x44", ` + "`A`" + `})`}},
	{"two files", true, map[string]string{"a.go": `var Answer = [2]string{one, two}`, "b.go": "const one, two = \"d\", \"a\"\n\nvar _ = len(one)\n\nvar count int = 2"}},
	{"case 2 from a constant expression", true, map[string]string{"a.go": `var Answer = [2]string{"D", "A" + ""}`}},

	// What runs, or may not build, goes the usual way.
	{"init changes Answer", false, map[string]string{"a.go": "var Answer = [2]string{\"B\", \"B\"}\n\nfunc init() { Answer[0], Answer[1] = \"D\", \"A\" }"}},
	{"a function", false, map[string]string{"a.go": "func first() string { return \"D\" }\n\nvar Answer = [2]string{first(), \"A\"}"}},
	{"a panicking initialiser", false, map[string]string{"a.go": "var Answer = [2]string{\"D\", \"A\"}\n\nvar _ = f()\n\nfunc f() int { panic(\"no answers today\") }"}},
	{"an import", false, map[string]string{"a.go": "import \"strings\"\n\nvar Answer = [2]string{strings.ToUpper(\"d\"), \"A\"}"}},
	{"a method", false, map[string]string{"a.go": "type T int\n\nfunc (T) String() string { return \"\" }\n\nvar Answer = [2]string{\"D\", \"A\"}"}},
	{"a type error", false, map[string]string{"a.go": `var Answer = [2]string{"D", 1}`}},
	{"an undefined name", false, map[string]string{"a.go": `var Answer = [2]string{"D", A}`}},
	{"a slice", false, map[string]string{"a.go": `var Answer = []string{"D", "A"}`}},
	{"another name", false, map[string]string{"a.go": `var Antwort = [2]string{"D", "A"}`}},
	{"a variable's value", false, map[string]string{"a.go": "var first = \"D\"\n\nvar Answer = [2]string{first, \"A\"}"}},
	{"a pointer", false, map[string]string{"a.go": "var Answer = [2]string{\"D\", \"A\"}\n\nvar p = &Answer"}},
	{"a huge array", false, map[string]string{"a.go": "var Answer = [2]string{\"D\", \"A\"}\n\nvar big [1 << 40]byte"}},
	{"a build constraint", false, map[string]string{"a.go": `var Answer = [2]string{"B", "A"}`, "b.go": "//go:build !windows\n\npackage bulkheadquiz\n\nfunc init() { Answer[0] = \"D\" }"}},
	{"a file for another system", false, map[string]string{"a.go": `var Answer = [2]string{"D", "A"}`, "b_windows.go": "package bulkheadquiz\n\nconst x = 1"}},
	{"a syntax error", false, map[string]string{"a.go": `var Answer = [2]string{"D", "A"`}},
	{"a refused import", false, map[string]string{"a.go": "import \"os\"\n\nvar Answer = [2]string{os.Args[0], \"A\"}"}},
}

// The checker gives a quiz's constant answers to the judge itself, and
// only those: each learner's file gets the same result, test by test and
// word by word, as when its program is built and run, and anything that
// runs code or may not build goes that way.
func TestConstantQuizAnswers(t *testing.T) {
	ex := exercise(t, "bulkheadquiz")
	var jobs []checker.Job
	for _, q := range quizFiles {
		dir := filepath.Join(t.TempDir(), ex.ID)
		require.NoError(t, os.Mkdir(dir, 0o755))
		for name, body := range q.files {
			if body[:7] != "package" && body[:2] != "//" {
				body = "package bulkheadquiz\n\n" + body + "\n"
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
		}
		_, constant := checker.ConstantAnswers(ex, dir)
		assert.Equal(t, q.constant, constant, q.name)
		jobs = append(jobs, checker.Job{Exercise: ex, Dir: dir})
	}
	ck := checker.Checker{Build: testBuild, Timeout: corpusTimeout}
	fast, err := ck.CheckAll(t.Context(), jobs)
	require.NoError(t, err)
	built, err := checker.WithoutConstants(ck).CheckAll(t.Context(), jobs)
	require.NoError(t, err)
	for i, q := range quizFiles {
		fast[i].Duration, built[i].Duration = 0, 0
		assert.Equal(t, built[i], fast[i], q.name)
		t.Logf("%s: %s", q.name, describe(fast[i]))
	}
}

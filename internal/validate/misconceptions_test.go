package validate

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/scaffold"
)

// newCourse returns kurs new course's course, whose exercise counter has
// one misconception, add-sets-the-count.
func newCourse(t *testing.T) fstest.MapFS {
	t.Helper()
	files, err := scaffold.Course()
	require.NoError(t, err)
	m := fstest.MapFS{}
	for _, f := range files {
		m[f.Path] = &fstest.MapFile{Data: f.Data}
	}
	return m
}

// counterCode is the example counter with Add's body replaced.
func counterCode(add string) string {
	return `package counter

type Counter struct{ n int }

func New(start int) *Counter { return &Counter{n: start} }

func (c *Counter) Add(d int) { ` + add + ` }

func (c *Counter) Value() int { return c.n }
`
}

func addMisconception(m fstest.MapFS, name, add, meta string) {
	dir := "exercises/counter/misconceptions/" + name + "/"
	m[dir+"counter.go"] = &fstest.MapFile{Data: []byte(counterCode(add))}
	m[dir+"en.md"] = &fstest.MapFile{Data: []byte("# A title\n\nAn explanation.\n")}
	m[dir+"de.md"] = &fstest.MapFile{Data: []byte("# Ein Titel\n\nEine Erklärung.\n")}
	if meta != "" {
		m[dir+"misconception.json"] = &fstest.MapFile{Data: []byte(meta)}
	}
}

// TestMisconceptionsValidated: validate refuses a misconception the hidden
// tests do not catch, naming its folder; one that passes a test its
// caught_by names, or names a test that does not exist; and two that
// behave the same. It records the signatures, and once they are in the
// course, it no longer warns that they are missing.
func TestMisconceptionsValidated(t *testing.T) {
	t.Parallel()
	m := newCourse(t)
	addMisconception(m, "right-after-all", "c.n += d", "")
	addMisconception(m, "stores-d", "c.n = d", "")
	addMisconception(m, "caps-at-ten", "c.n = min(c.n+d, 10)", `{"caught_by": ["seed/worked-example", "edge/nothing"]}`)
	r := run(t, m, Options{})
	assert.Equal(t, []string{
		"exercises/counter/misconceptions/caps-at-ten/misconception.json:1 misconception_not_caught",
		"exercises/counter/misconceptions/caps-at-ten/misconception.json:1 misconception_unknown_test",
		"exercises/counter/misconceptions/right-after-all:0 misconception_uncaught",
		"exercises/counter/misconceptions/stores-d:0 misconception_same",
	}, where(r.Problems))
	assert.Contains(t, r.Problems[2].Args, "exercises/counter/misconceptions/right-after-all", "names the folder")
	assert.Contains(t, r.Problems[3].Args, "add-sets-the-count")
	assert.Empty(t, r.Signatures, "not recorded while a misconception is wrong")

	// A new course comes with its signatures; without them, validate
	// warns and records them.
	m = newCourse(t)
	require.Contains(t, m, "exercises/counter/misconceptions/signatures.json")
	delete(m, "exercises/counter/misconceptions/signatures.json")
	r = run(t, m, Options{})
	assert.Empty(t, r.Problems)
	require.Equal(t, []string{"exercises/counter/misconceptions/signatures.json:0 signatures_stale"}, where(r.Warnings))
	require.Len(t, r.Signatures, 1)
	var sigs course.Signatures
	require.NoError(t, json.Unmarshal(r.Signatures[0].Data, &sigs))
	got := sigs.Misconceptions["add-sets-the-count"]
	assert.Equal(t, []string{"seed/worked-example", "random"}, got.Fail)
	assert.Equal(t, course.Departure{Kind: "mismatch", Step: 1, Want: resultObs("5"), Got: resultObs("3")}, got.Steps["seed/worked-example"])

	m[r.Signatures[0].Path] = &fstest.MapFile{Data: r.Signatures[0].Data}
	r = run(t, m, Options{})
	assert.Empty(t, r.Problems)
	assert.Empty(t, r.Warnings, "the recorded signatures are up to date")
}

// TestEveryMisconceptionMessageExists: each kind of misconceptions.go has
// its message in both languages.
func TestEveryMisconceptionMessageExists(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "misconceptions.go", nil, 0)
	require.NoError(t, err)
	var ids []string
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				switch v := vs.Values[0].(type) {
				case *ast.BasicLit:
					k, _ := strconv.Unquote(v.Value)
					ids = append(ids, "validate.problem_"+k)
				case *ast.SelectorExpr:
					ids = append(ids, "validate.problem_"+strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(v.Sel.Name, "Err")), "misconception", "misconception_"))
				}
			}
		}
	}
	require.Len(t, ids, 13)
	for _, lang := range i18n.Languages {
		keys, err := i18n.Keys(lang)
		require.NoError(t, err)
		for _, id := range ids {
			assert.Contains(t, keys, id, "%s catalogs", lang)
		}
	}
}

// TestMisconceptionClaimsReplayed: the traces of a misconception's
// trace.json are replayed on its code and on the reference; validate
// reports, at its line, each value the text claims that the code does not
// give, and a trace on which the mistake shows nothing.
func TestMisconceptionClaimsReplayed(t *testing.T) {
	t.Parallel()
	const file = "exercises/counter/misconceptions/add-sets-the-count/trace.json"
	m := newCourse(t)
	m[file] = &fstest.MapFile{Data: []byte(`{"traces": [
  {"new": [3], "steps": [
    {"call": "Add", "args": [2], "got": {"obs": "2"}, "want": {"obs": "5"}}
  ]}
]}
`)}
	r := run(t, m, Options{})
	assert.Empty(t, r.Problems, "the claims are true")

	m[file] = &fstest.MapFile{Data: []byte(`{"traces": [
  {"new": [3], "steps": [
    {"call": "Add", "args": [2], "got": {"obs": "5"},
     "want": {"obs": "4"}}
  ]},
  {"new": [0], "steps": [
    {"call": "Add", "args": [0]}
  ]}
]}
`)}
	r = run(t, m, Options{})
	assert.Equal(t, []string{
		file + ":3 misconception_claim",
		file + ":4 misconception_claim",
		file + ":6 misconception_claim_same",
	}, where(r.Problems))
	text := func(lang string, p Problem) string {
		return i18n.New(lang).T("validate.problem_"+string(p.Kind), p.Args...)
	}
	assert.Contains(t, text("en", r.Problems[0]), "at step 1, Add(2), its code shows 5, but it shows 2")
	assert.Contains(t, text("en", r.Problems[1]), "the reference shows 4, but it shows 5")
	assert.Contains(t, text("de", r.Problems[0]), "ihr Code in Schritt 1, Add(2), 5 zeigt, er zeigt aber 2")
}

func resultObs(obs string) harness.Result { return harness.Result{Obs: obs} }

// TestRedundantTestReported: with --mutants, a hidden test that no mutant
// and no misconception fails is a problem at its entry in suite.json, and
// the summary says how many mutants each test fails.
func TestRedundantTestReported(t *testing.T) {
	t.Parallel()
	const file = "exercises/counter/testdata/suite.json"
	m := newCourse(t)
	suite := string(m[file].Data)
	i := strings.Index(suite, `    {
      "name": "random"`)
	require.Positive(t, i, suite)
	suite = suite[:i] + `    {
      "name": "edge/add-zero",
      "title": {"de": "Null dazu ändert nichts", "en": "Adding zero changes nothing"},
      "new": [0],
      "steps": [{"call": "Add", "args": [0], "obs": "0"}]
    },
` + suite[i:]
	m[file] = &fstest.MapFile{Data: []byte(suite)}
	line := strings.Count(suite[:strings.Index(suite, `"name": "edge/add-zero"`)], "\n")
	r := run(t, m, Options{Mutants: true})
	assert.Contains(t, where(r.Problems), fmt.Sprintf("%s:%d test_redundant", file, line), "the redundant test at its entry")
	kills := map[string]int{}
	for _, sum := range r.Mutants {
		if sum.Exercise == "counter" {
			for _, k := range sum.Kills {
				kills[k.Test] = k.Mutants
			}
		}
	}
	assert.Zero(t, kills["edge/add-zero"])
	assert.Positive(t, kills["seed/worked-example"])
	for _, p := range r.Problems {
		if p.Kind == TestRedundant {
			assert.Contains(t, p.Args, "edge/add-zero")
		}
	}
}

package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/scaffold"
)

func run(t *testing.T, fsys fs.FS, opts Options) *Report {
	t.Helper()
	opts.Jobs = 2
	if opts.Checker == nil {
		opts.Checker = reusing()
	}
	r, err := Run(context.Background(), fsys, opts)
	require.NoError(t, err)
	return r
}

// where lists the problems as "file:line kind", the way an author finds
// them.
func where(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s:%d %s", p.File, p.Line, p.Kind))
	}
	return out
}

// TestBrokenCourse validates testdata/broken, which has one planted defect
// of every kind the issue names, and expects each reported once, with its
// file and line, in one run, and nothing else.
func TestBrokenCourse(t *testing.T) {
	t.Parallel()
	r := run(t, os.DirFS("testdata/broken"), Options{})
	assert.Equal(t, []string{
		// An i18n key missing in a language: the title has no "de".
		"exercises/counter/exercise.json:6 text_missing",
		// A hint missing in a language: one German hint, two English;
		// the English file has the hint without a counterpart.
		"exercises/counter/hints.en.md:5 hints_count",
		// An import in the reference outside the allowlist.
		"exercises/counter/solution/counter.go:4 ref_import",
		// A reference that fails a hidden test (the trace expects 3), at
		// the step that expects it.
		"exercises/counter/testdata/suite.json:15 ref_fails",
		// Traces the reference cannot run: a call it has no method for,
		// and a division by zero.
		"exercises/counter/testdata/suite.json:18 trace_call",
		"exercises/counter/testdata/suite.json:20 trace_panics",
		// A skeleton that does not compile, and one that passes.
		"exercises/freebie/skeleton/de/freebie.go:11 skeleton_error",
		"exercises/freebie/skeleton/en/freebie.go:1 skeleton_passes",
		// A lesson missing in a language.
		"lessons/half/lesson.json:2 lesson_text",
		// The languages of a lesson out of step: a table, a code block, a
		// section, an exercise.
		"lessons/main/de.md:17 table_shape",
		"lessons/main/de.md:21 code_blocks",
		"lessons/main/de.md:29 headings",
		// A broken link and a broken image.
		"lessons/main/en.md:7 link",
		"lessons/main/en.md:9 image",
		// A table tied to a trace whose number the reference does not
		// produce.
		"lessons/main/en.md:15 table_cell",
		"lessons/main/en.md:30 mentions",
	}, where(r.Problems))

	byKind := map[Kind]Problem{}
	for _, p := range r.Problems {
		byKind[p.Kind] = p
	}
	assert.Contains(t, byKind[TracePanics].Detail, "integer divide by zero")
	assert.Contains(t, byKind[SkeletonError].Detail, "exercises/freebie/skeleton/de/freebie.go:11", "compiler output names the course's file")
	require.NotNil(t, byKind[RefFails].Failure, "the failing test can be explained as kurs check would")
	assert.Equal(t, "edge/wrong-expectation", byKind[RefFails].Failure.Test.Name)
	assert.Regexp(t, `^exercises/counter/solution/counter\.go:\d+$`, argOf(byKind[RefFails], "Solution"), "names the reference's code the step runs")
	assert.Equal(t, 1, argOf(byKind[RefFails], "Step"))
	assert.Equal(t, []any{"Row", 2, "Column", "Count after", "Got", "3", "Want", "4", "Test", "seed/worked"}, byKind[TableCell].Args)
}

// TestLessonTablesAreTied changes one number in every worked table of the
// first lesson and expects each change reported at its line: every table
// is tied to a trace and really compared.
func TestLessonTablesAreTied(t *testing.T) {
	t.Parallel()
	// Only the first lesson and its exercises: the rest of the course is
	// not this test's business.
	m := fstest.MapFS{}
	require.NoError(t, fs.WalkDir(kurs.Content(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		parts := strings.Split(p, "/")
		if len(parts) < 2 || !slices.Contains([]string{"resilienz-2", "circuitbreaker", "tokenbucket", "bulkheadquiz"}, parts[1]) {
			return nil
		}
		data, err := fs.ReadFile(kurs.Content(), p)
		m[p] = &fstest.MapFile{Data: data}
		return err
	}))
	lj := m["lessons/resilienz-2/lesson.json"]
	var l map[string]any
	require.NoError(t, json.Unmarshal(lj.Data, &l))
	l["exercises"] = []string{"circuitbreaker", "tokenbucket", "bulkheadquiz"}
	lj.Data, _ = json.Marshal(l)
	var want []string
	for _, lang := range []string{"de", "en"} {
		file := "lessons/resilienz-2/" + lang + ".md"
		lines := strings.Split(string(m[file].Data), "\n")
		tied := 0
		for i, ln := range lines {
			if !strings.HasPrefix(ln, "<!-- kurs:trace ") {
				continue
			}
			tied++
			// The last row of the table: header, delimiter, rows.
			j := i + 3
			for j+1 < len(lines) && strings.HasPrefix(lines[j+1], "|") {
				j++
			}
			cells := strings.Split(lines[j], "|")
			cells[len(cells)-2] = " `\"wrong\"` 999 "
			lines[j] = strings.Join(cells, "|")
			want = append(want, fmt.Sprintf("%s:%d table_cell", file, j+1))
		}
		assert.Equal(t, 3, tied, "%s: the breaker table, the bucket table and the example sequence", file)
		m[file] = &fstest.MapFile{Data: []byte(strings.Join(lines, "\n"))}
	}
	r := run(t, m, Options{})
	var got []string
	for _, p := range r.Problems {
		if p.Kind == TableCell {
			got = append(got, fmt.Sprintf("%s:%d %s", p.File, p.Line, p.Kind))
		}
	}
	assert.ElementsMatch(t, want, got)
}

// TestEveryMessageExists checks that both catalogs explain every kind of
// problem; the command line builds these ids at run time.
func TestEveryMessageExists(t *testing.T) {
	t.Parallel()
	ids := []string{"validate.lang_de", "validate.lang_en"}
	// Every constant of type Kind, read from the source so that a new kind
	// cannot be forgotten here.
	f, err := parser.ParseFile(token.NewFileSet(), "validate.go", nil, 0)
	require.NoError(t, err)
	kinds := 0
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Kind" {
					k, _ := strconv.Unquote(vs.Values[0].(*ast.BasicLit).Value)
					ids = append(ids, "validate.problem_"+k)
					kinds++
				}
			}
		}
	}
	require.Greater(t, kinds, 40, "the scan found too few kinds")
	for _, why := range []string{"malformed", "empty", "absolute", "outside", "missing", "folder", "anchor"} {
		ids = append(ids, "validate.why_"+why)
	}
	for _, s := range []string{"quiz", "reference", "types"} {
		ids = append(ids, "validate.mutants_skipped_"+s)
	}
	for _, lang := range i18n.Languages {
		keys, err := i18n.Keys(lang)
		require.NoError(t, err)
		for _, id := range ids {
			assert.Contains(t, keys, id, "%s catalogs", lang)
		}
	}
}

// TestMutants runs --mutants on testdata/weak, whose tests never reach the
// ceiling: the mutants that drop the ceiling survive and are reported with
// their diff at their line; the one marked equivalent is not a problem;
// the stale mark is.
func TestMutants(t *testing.T) {
	t.Parallel()
	r := run(t, os.DirFS("testdata/weak"), Options{Mutants: true})
	require.Len(t, r.Mutants, 1)
	s := r.Mutants[0]
	assert.Equal(t, "clamp", s.Exercise)
	assert.Equal(t, 7, s.Mutants)
	assert.Equal(t, 4, s.Killed)
	var survivors, equivalent []string
	for _, x := range s.Survivors {
		survivors = append(survivors, x.ID)
	}
	for _, x := range s.Equivalent {
		equivalent = append(equivalent, x.ID)
	}
	assert.Equal(t, []string{
		"Clamp.Add: drop `if c.n > c.ceiling { c.n = c.ceiling }`",
		"Clamp.Add: drop `c.n = c.ceiling`",
	}, survivors)
	assert.Equal(t, []string{"Clamp.Add: > → >= in `c.n > c.ceiling`"}, equivalent)
	assert.InDelta(t, 4.0/6, s.Score(), 1e-9)

	var got []string
	for _, p := range r.Problems {
		if p.Kind == MutantSurvives || p.Kind == MutantMarkStale {
			got = append(got, fmt.Sprintf("%s:%d %s", p.File, p.Line, p.Kind))
		}
		if p.Kind == MutantSurvives && p.Line == 14 {
			assert.Contains(t, p.Detail, "-\t\tc.n = c.ceiling\n", "the diff shows the dropped statement")
		}
	}
	assert.Equal(t, []string{
		"exercises/clamp/mutants.json:4 mutant_mark_stale",
		"exercises/clamp/solution/clamp.go:13 mutant_survives",
		"exercises/clamp/solution/clamp.go:14 mutant_survives",
	}, got)
}

// mapCourse returns the files of a course folder as a MapFS, to be changed.
func mapCourse(t *testing.T, dir string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	src := os.DirFS(dir)
	require.NoError(t, fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		m[p] = &fstest.MapFile{Data: data}
		return err
	}))
	return m
}

// TestFormProblems plants the mistakes of form that need no build: broken
// JSON, ids, lessons and exercises that do not name each other, markers
// that cannot be read, anchors, a description of random traces that does
// not fit, and what an author marked as still to write.
func TestFormProblems(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	m["lessons/broken/lesson.json"] = &fstest.MapFile{Data: []byte("{\n  \"id\": \"broken\",\n  \"order\": 2,\n}\n")}
	m["lessons/other/lesson.json"] = &fstest.MapFile{Data: []byte("{\n  \"id\": \"wrong\"\n}\n")}
	m["lessons/typo/lesson.json"] = &fstest.MapFile{Data: []byte("{\n  \"id\": \"typo\",\n  \"order\": 3,\n  \"exercies\": [],\n  \"title\": 7\n}\n")}
	m["lessons/typo2/lesson.json"] = &fstest.MapFile{Data: []byte("{\n  \"id\": \"typo2\",\n  \"order\": \"4\"\n}\n")}
	m["exercises/Bad/exercise.json"] = &fstest.MapFile{Data: []byte("{\n  \"id\": \"Bad\"\n}\n")}
	m["exercises/Bad/testdata/suite.json"] = &fstest.MapFile{Data: []byte(`{"tests": [{"name": "x", "case": 1}]}`)}
	m["lessons/main/lesson.json"] = &fstest.MapFile{Data: []byte(`{"id": "main", "order": 1,
  "title": {"de": "Deckel", "en": "Ceiling"},
  "exercises": ["clamp", "ghost"]}`)}
	m["lessons/main/de.md"] = &fstest.MapFile{Data: []byte(`# Deckel

Die Übung ` + "`clamp`" + ` zählt bis zu einem Deckel. [Oben](#s1), [weg](#s9).

TODO(author): ein Beispiel

<!-- kurs:trace clamp seed/nowhere columns=arg,after -->
| a | b |
|---|---|
| 1 | 1 |

<!-- kurs:trace clamp seed/below-the-ceiling columns=arg,after -->

Kein Tabellenanfang.
`)}
	m["lessons/main/en.md"] = &fstest.MapFile{Data: []byte(`# Ceiling

The exercise ` + "`clamp`" + ` counts up to a ceiling. [Here](/etc/passwd).

<!-- kurs:trace clamp seed/below-the-ceiling columns=arg,sum -->
| a | b |
|---|---|
| 1 | 1 |
`)}
	m["exercises/clamp/testdata/suite.json"] = &fstest.MapFile{Data: []byte(`{
  "observe": "Value",
  "generate": {
    "new": [{"int": [1, 9]}],
    "steps": [1, 5],
    "time": {"step": [0, 0]},
    "ops": [{"call": "Sub", "args": [1]}]
  },
  "tests": [
    {"name": "seed/below-the-ceiling", "title": {"de": "Unter dem Deckel", "en": "Below the ceiling"}, "new": [10], "steps": [
      {"call": "Add", "args": [1], "obs": "1"},
      {"call": "Add", "args": [2, 3], "obs": "3"},
      {"call": "Add", "args": [0.5]}
    ]},
    {"name": "random", "title": {"de": "Zufällige Abläufe", "en": "Random traces"}, "random": 1000}
  ]
}`)}
	r := run(t, m, Options{})
	assert.Equal(t, []string{
		"exercises/Bad/exercise.json:2 id_invalid",
		"exercises/clamp/testdata/suite.json:7 generate",
		"exercises/clamp/testdata/suite.json:12 trace_args",
		"exercises/clamp/testdata/suite.json:13 trace_whole",
		"lessons/broken/lesson.json:3 json",
		"lessons/main/de.md:3 link",
		"lessons/main/de.md:5 todo",
		"lessons/main/de.md:7 marker_target",
		"lessons/main/de.md:7 markers",
		"lessons/main/de.md:12 marker_no_table",
		"lessons/main/en.md:3 link",
		"lessons/main/en.md:5 marker_syntax",
		"lessons/main/lesson.json:3 exercise_unknown",
		"lessons/other/lesson.json:2 id_mismatch",
		"lessons/typo/lesson.json:4 unknown_key",
		"lessons/typo2/lesson.json:3 wrong_type",
	}, where(r.Problems))
}

// TestExerciseProblems plants mistakes in an exercise and its tied table:
// random traces the reference cannot run, too few
// random traces, an exercise no lesson lists, no points, a
// refused package on the allowlist, a missing skeleton and hints, and
// tables that do not fit their trace.
func TestExerciseProblems(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	delete(m, "exercises/clamp/skeleton/de/clamp.go")
	m["exercises/clamp/exercise.json"] = &fstest.MapFile{Data: []byte(`{
  "id": "clamp",
  "kind": "trace",
  "points": 0,
  "title": {"de": "Deckel", "en": "Ceiling"},
  "imports": ["os"]
}`)}
	m["exercises/clamp/hints.en.md"] = &fstest.MapFile{Data: []byte("\n")}
	m["lessons/main/lesson.json"] = &fstest.MapFile{Data: []byte(`{"id": "main", "order": 1,
  "title": {"de": "Deckel", "en": "Ceiling"},
  "exercises": []}`)}
	// Add(d) with d drawn from 0 to 0 is fine; the ceiling drawn from -1
	// to -1 makes New panic in the reference below.
	m["exercises/clamp/solution/clamp.go"] = &fstest.MapFile{Data: []byte(`// Package clamp is the reference solution of the exercise "clamp".
package clamp

// Clamp counts up to a ceiling.
type Clamp struct{ n, ceiling int }

// New returns a count of 0 that never exceeds ceiling.
func New(ceiling int) *Clamp {
	if ceiling < 0 {
		panic("negative ceiling")
	}
	return &Clamp{ceiling: ceiling}
}

// Add adds d, but not beyond the ceiling.
func (c *Clamp) Add(d int) {
	c.n += d
	if c.n > c.ceiling {
		c.n = c.ceiling
	}
}

// Value returns the count.
func (c *Clamp) Value() int { return c.n }
`)}
	suite := `{
  "observe": "Value",
  "generate": {
    "new": [{"int": [-1, -1]}],
    "steps": [1, 3],
    "time": {"step": [0, 0]},
    "ops": [{"call": "Add", "args": [{"int": [0, 2]}]}]
  },
  "tests": [
    {"name": "seed/below-the-ceiling", "title": {"de": "Unter dem Deckel", "en": "Below the ceiling"}, "new": [10], "steps": [
      {"call": "Add", "args": [1], "obs": "1"},
      {"call": "Add", "args": [2], "obs": "3"}
    ]},
    {"name": "random", "title": {"de": "Zufällige Abläufe", "en": "Random traces"}, "random": 10}
  ]
}`
	m["exercises/clamp/testdata/suite.json"] = &fstest.MapFile{Data: []byte(suite)}
	files, err := generatedDriver(m, "clamp")
	require.NoError(t, err)
	for p, data := range files {
		m[p] = &fstest.MapFile{Data: data}
	}
	m["lessons/main/en.md"] = &fstest.MapFile{Data: []byte(`# Ceiling

The exercise ` + "`clamp`" + ` counts up to a ceiling.

<!-- kurs:trace clamp seed/below-the-ceiling columns=arg -->
| Added | Count |
|---|---|
| 1 | 1 |

<!-- kurs:trace clamp seed/below-the-ceiling columns=arg,after -->
| Added | Count |
|---|---|
| 1 | 1 |

<!-- kurs:trace clamp seed/below-the-ceiling columns=calls,expect -->
| Calls | Count |
|---|---|
| ` + "`Add(1)`, `Add(3)`" + ` | ` + "`\"3\"`" + ` |
`)}
	m["lessons/main/de.md"] = &fstest.MapFile{Data: []byte(`# Deckel

Die Übung ` + "`clamp`" + ` zählt bis zu einem Deckel.

<!-- kurs:trace clamp seed/below-the-ceiling columns=arg -->
| Addiert | Stand |
|---|---|
| 1 | 1 |

<!-- kurs:trace clamp seed/below-the-ceiling columns=arg,after -->
| Addiert | Stand |
|---|---|
| 1 | 1 |

<!-- kurs:trace clamp seed/below-the-ceiling columns=calls,expect -->
| Aufrufe | Stand |
|---|---|
| ` + "`Add(1)`, `Add(2)`" + ` | ` + "`\"3\"`" + ` |
`)}
	r := run(t, m, Options{})
	assert.Equal(t, []string{
		"exercises/clamp/exercise.json:2 lesson_none",
		"exercises/clamp/exercise.json:2 skeleton_missing",
		"exercises/clamp/exercise.json:4 points",
		"exercises/clamp/exercise.json:6 allowlist_refused",
		"exercises/clamp/hints.en.md:0 hints_missing",
		"exercises/clamp/testdata/suite.json:9 few_random",
		"exercises/clamp/testdata/suite.json:14 random_panics",
		"lessons/main/de.md:5 table_columns",
		"lessons/main/de.md:11 table_rows",
		"lessons/main/en.md:5 table_columns",
		"lessons/main/en.md:11 table_rows",
		"lessons/main/en.md:18 table_calls",
	}, where(r.Problems))
	for _, p := range r.Problems {
		if p.Kind == RandomPanics {
			// Drawing the trace runs the reference alongside, so New
			// panics while the trace is drawn.
			assert.Equal(t, "negative ceiling", p.Detail)
			assert.Equal(t, []any{"Test", "random", "Index", 1, "Seed", uint64(1), "Step", -1}, p.Args)
		}
	}
}

// TestMetadataKeys: a misspelled key in any metadata file, an exercise's
// or a lesson's, or in the hidden tests, is a problem with its file and
// line, reported once. What else is wrong with a suite.json is reported
// too (see TestUnknownKeysAndWhatElse): here, its few random traces.
func TestMetadataKeys(t *testing.T) {
	t.Parallel()
	for file, typo := range map[string][2]string{
		"exercises/clamp/exercise.json":       {`"points"`, `"pionts"`},
		"lessons/main/lesson.json":            {`"minutes"`, `"minuten"`},
		"exercises/clamp/testdata/suite.json": {`"obs"`, `"ob"`},
	} {
		m := mapCourse(t, "testdata/weak")
		f := m[file]
		require.Contains(t, string(f.Data), typo[0], file)
		f.Data = []byte(strings.Replace(string(f.Data), typo[0], typo[1], 1))
		r := run(t, m, Options{})
		var mine []Problem
		for _, p := range r.Problems {
			if p.File == file && p.Kind != FewRandom {
				mine = append(mine, p)
			}
		}
		require.Len(t, mine, 1, "%s: %v", file, where(r.Problems))
		assert.Equal(t, UnknownKey, mine[0].Kind, file)
		// The key meant is named, as the author likely mistyped it.
		assert.Equal(t, []any{"Key", strings.Trim(typo[1], `"`), "Near", strings.Trim(typo[0], `"`)}, mine[0].Args, file)
		assert.Positive(t, mine[0].Line, file)
		assert.Contains(t, strings.Split(string(f.Data), "\n")[mine[0].Line-1], typo[1], file)
	}
}

// TestQuizProblems plants the mistakes a quiz can have: an option without
// its explanation in one language, a right answer that is not an option,
// fewer or more answers than cases (without the failing reference that
// follows from them),
// a task that does not say where the cases go, a quiz file that is not laid
// out as it must be, and Go that a quiz does not use; and, beside it, an
// API check that a trace exercise does not use. Each obsolete file is told
// why, by what its exercise is made of.
func TestQuizProblems(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	m["lessons/main/lesson.json"].Data = []byte(`{"id": "main", "order": 1, "title": {"de": "Deckel", "en": "Ceiling"}, "exercises": ["clamp", "pick", "bad", "few", "more"]}`)
	quiz := func(id, answers string) {
		m["exercises/"+id+"/exercise.json"] = &fstest.MapFile{Data: []byte(`{
  "id": "` + id + `",
  "kind": "quiz",
  "points": 2,
  "title": {"de": "Wahl", "en": "Choice"},
  "imports": [],
  "answers": ` + answers + `
}`)}
		for _, lang := range []string{"de", "en"} {
			m["exercises/"+id+"/task."+lang+".md"] = &fstest.MapFile{Data: []byte("Wähle.\n\n<!-- kurs:quiz -->\n")}
			m["exercises/"+id+"/hints."+lang+".md"] = &fstest.MapFile{Data: []byte("## 1\n\nDenk nach.\n")}
			m["exercises/"+id+"/skeleton/"+lang+"/"+id+".go"] = &fstest.MapFile{Data: []byte("package " + id + "\n\n// Answer is the answer.\nvar Answer = [2]string{}\n")}
			m["exercises/"+id+"/quiz."+lang+".md"] = &fstest.MapFile{Data: []byte("## Case 1\n\nWhich?\n\n### A\n\nThis.\n\n> Because.\n\n### B\n\nThat.\n\n> Not so.\n\n## Case 2\n\nAnd now?\n\n### A\n\nYes.\n\n> Right.\n\n### B\n\nNo.\n\n> Wrong.\n")}
		}
	}
	quiz("pick", `["A", "E"]`)
	m["exercises/pick/quiz.de.md"].Data = []byte("## Fall 1\n\nWelche?\n\n### A\n\nDas.\n\n> Weil.\n\n### B\n\nJenes.\n\n## Fall 2\n\nUnd jetzt?\n\n### A\n\nJa.\n\n> Richtig.\n\n### B\n\nNein.\n\n> Falsch.\n")
	m["exercises/pick/task.en.md"].Data = []byte("Choose.\n")
	m["exercises/pick/solution/pick.go"] = &fstest.MapFile{Data: []byte("package pick\n\nvar Answer = [2]string{\"A\", \"A\"}\n")}
	quiz("bad", `["A", "A"]`)
	m["exercises/bad/quiz.en.md"].Data = []byte("Intro.\n\n## Case 1\n\nWhich?\n\n### A\n\nThis.\n\n> Because.\n")
	quiz("few", `["A"]`)
	quiz("more", "[\n    \"A\",\n    \"B\",\n    \"A\"\n  ]")
	m["exercises/clamp/testdata/api.go"] = &fstest.MapFile{Data: []byte("package clamp\n")}
	r := run(t, m, Options{})
	assert.Equal(t, []string{
		"exercises/bad/quiz.en.md:1 markdown",
		"exercises/clamp/testdata/api.go:0 obsolete",
		"exercises/clamp/testdata/suite.json:3 few_random",
		"exercises/few/exercise.json:7 quiz_answers",
		"exercises/more/exercise.json:10 quiz_answers_extra",
		"exercises/pick/exercise.json:7 quiz_answer",
		"exercises/pick/quiz.de.md:11 quiz_why",
		"exercises/pick/solution/:0 obsolete",
		"exercises/pick/task.en.md:0 quiz_marker",
	}, where(r.Problems))
	for _, p := range r.Problems {
		switch p.Kind {
		case QuizWhy:
			assert.Equal(t, []any{"Case", 1, "Lang", "de", "Letter", "B"}, p.Args)
		case QuizAnswer:
			assert.Equal(t, []any{"Case", 2, "Answer", "E", "Options", "A, B"}, p.Args)
		case QuizAnswers:
			assert.Equal(t, []any{"Want", 2, "Got", 1}, p.Args)
		case QuizAnswersExtra:
			assert.Equal(t, []any{"Want", 2, "Got", 3, "Extra", 1}, p.Args)
		case Obsolete:
			want := map[string]string{
				"de": "eine Übung der Art quiz braucht das nicht: Referenzantwort und Tests eines Quiz ergeben sich aus exercise.json",
				"en": "a quiz exercise does not use this: a quiz's reference answer and tests follow from exercise.json",
			}
			if p.File == "exercises/clamp/testdata/api.go" {
				want = map[string]string{
					"de": "eine Übung der Art trace braucht das nicht: die API-Prüfung wird aus der Referenzlösung abgeleitet",
					"en": "a trace exercise does not use this: the API check is derived from the reference solution",
				}
			}
			for lang, w := range want {
				assert.Contains(t, i18n.New(lang).T("validate.problem_obsolete", p.Args...), w, p.File)
			}
		}
	}
}

// TestStaleDriver changes the description of random traces without
// generating the driver again: that is all validate reports, since checks
// built with the old driver would say nothing about the exercise.
func TestStaleDriver(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	s := m["exercises/clamp/testdata/suite.json"]
	s.Data = []byte(strings.Replace(string(s.Data), `"observe": "Value",`, `"observe": "Value", "generate": {"new": [{"int": [1, 9]}], "steps": [1, 3], "time": {"step": [0, 0]}, "ops": [{"call": "Add", "args": [{"int": [0, 2]}]}]},`, 1))
	r := run(t, m, Options{})
	assert.Equal(t, []string{"exercises/clamp/testdata/driver.go:1 driver_stale", "exercises/clamp/testdata/suite.json:3 few_random"}, where(r.Problems))

	files, err := generatedDriver(m, "clamp")
	require.NoError(t, err)
	for p, data := range files {
		m[p] = &fstest.MapFile{Data: data}
	}
	r = run(t, m, Options{})
	assert.Equal(t, []string{"exercises/clamp/testdata/suite.json:3 few_random"}, where(r.Problems))
}

// generatedDriver returns the driver and API files kurs new driver would
// write for exercise id of m.
func generatedDriver(m fstest.MapFS, id string) (map[string][]byte, error) {
	files, err := scaffold.Driver(m, id)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, f := range files {
		out[f.Path] = f.Data
	}
	return out, nil
}

// TestParityCountsSectionsAndTables gives one language a section more and
// the other a table more: each is reported where the extra one starts,
// with both counts and the other file.
func TestParityCountsSectionsAndTables(t *testing.T) {
	t.Parallel()
	v := &validator{}
	de := v.parseDoc("lessons/x/de.md", "de", []byte("# T\n\n## A\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n| c |\n|---|\n| 3 |\n"))
	en := v.parseDoc("lessons/x/en.md", "en", []byte("# T\n\n## A\n\n## B\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"))
	v.parity(de, en, nil)
	assert.Equal(t, []Problem{
		{File: "lessons/x/en.md", Line: 5, Kind: Headings, Args: []any{"Have", 3, "OtherHave", 2, "Other", "lessons/x/de.md"}},
		{File: "lessons/x/de.md", Line: 9, Kind: Tables, Args: []any{"Have", 2, "OtherHave", 1, "Other", "lessons/x/en.md"}},
	}, v.problems)
}

// TestUnknownKeysAndWhatElse gives a suite.json two unknown keys, one the
// last of its object, and a wrong expectation: all three are reported in
// one run, each at its line, since the file still reads without the keys.
func TestUnknownKeysAndWhatElse(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	s := m["exercises/clamp/testdata/suite.json"]
	text := strings.Replace(string(s.Data), `"new": [10], "steps"`, `"new": [10], "point": 1, "steps"`, 1)
	text = strings.Replace(text, `"obs": "3"}`, `"obs": "4"}`, 1)
	text = strings.Replace(text, "\n  ]\n}", "\n  ],\n  \"observ\": \"Value\"\n}", 1)
	require.NotEqual(t, string(s.Data), text)
	s.Data = []byte(text)
	r := run(t, m, Options{})
	assert.Equal(t, []string{
		"exercises/clamp/testdata/suite.json:3 few_random",
		"exercises/clamp/testdata/suite.json:4 unknown_key",
		"exercises/clamp/testdata/suite.json:6 ref_fails",
		"exercises/clamp/testdata/suite.json:9 unknown_key",
	}, where(r.Problems))
}

package validate

import (
	"github.com/kurs-course/kurs"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests hold the validator to pointing where the fix goes: the
// step whose expectation fails, the file that departs from the other
// language, every file of an exercise at once, and only files that exist.

// TestRefFailsNamesStepAndSolution: a reference that does not meet a
// step's expectation is reported at that step's line, and the message
// names the reference's file and line that the step runs, and the step.
func TestRefFailsNamesStepAndSolution(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	suite := string(m["exercises/clamp/testdata/suite.json"].Data)
	// The second step of the worked trace now expects a wrong value.
	lines := strings.Split(suite, "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, `"obs": "3"`) {
			at = i
			break
		}
	}
	require.NotEqual(t, -1, at, "the weak course's suite has a step that observes 3")
	lines[at] = strings.Replace(lines[at], `"obs": "3"`, `"obs": "4"`, 1)
	m["exercises/clamp/testdata/suite.json"].Data = []byte(strings.Join(lines, "\n"))
	r := run(t, m, Options{})
	var got []Problem
	for _, p := range r.Problems {
		if p.Kind == RefFails {
			got = append(got, p)
		}
	}
	require.Len(t, got, 1, "%v", where(r.Problems))
	p := got[0]
	assert.Equal(t, "exercises/clamp/testdata/suite.json", p.File)
	assert.Equal(t, at+1, p.Line, "the step's line, not the test's")
	assert.Regexp(t, `^exercises/clamp/solution/clamp\.go:\d+$`, argOf(p, "Solution"))
	assert.Equal(t, 2, argOf(p, "Step"))
	assert.Equal(t, "Add(2)", argOf(p, "Call"))
	// The declaration named is the method the step calls.
	sol := string(m["exercises/clamp/solution/clamp.go"].Data)
	line := 0
	for i, l := range strings.Split(sol, "\n") {
		if strings.Contains(l, ") Add(") {
			line = i + 1
		}
	}
	assert.Equal(t, "exercises/clamp/solution/clamp.go:"+strconv.Itoa(line), argOf(p, "Solution"))
}

// TestHintsCountBlamesTheFileThatDeparts: with a hint added in one
// language, that file is blamed at the added hint; with a hint removed
// later (the file with fewer hints written after the other), that one.
func TestHintsCountBlamesTheFileThatDeparts(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	m["exercises/clamp/hints.de.md"].Data = []byte("## Hinweis 1\n\nVergleiche mit dem Deckel.\n\n## Hinweis 2\n\nNimm min.\n")
	r := run(t, m, Options{})
	p := only(t, r, HintsCount)
	assert.Equal(t, "exercises/clamp/hints.de.md", p.File, "the German file got a hint the English one lacks")
	assert.Equal(t, 5, p.Line, "at the hint without a counterpart")
	assert.Equal(t, "exercises/clamp/hints.en.md", argOf(p, "Other"))

	then := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	m["exercises/clamp/hints.de.md"].ModTime = then
	m["exercises/clamp/hints.en.md"].ModTime = then.Add(time.Second)
	p = only(t, run(t, m, Options{}), HintsCount)
	assert.Equal(t, "exercises/clamp/hints.de.md", p.File, "files written together say nothing about which changed")

	m["exercises/clamp/hints.en.md"].ModTime = then.Add(time.Hour)
	p = only(t, run(t, m, Options{}), HintsCount)
	assert.Equal(t, "exercises/clamp/hints.en.md", p.File, "the English file was edited later: a hint was removed there")
	assert.Equal(t, 0, p.Line)
}

// TestEveryFileOfAnExercise: an unknown key in both exercise.json and
// suite.json of one exercise gives two problems in one run.
func TestEveryFileOfAnExercise(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	for file, typo := range map[string][2]string{
		"exercises/clamp/exercise.json":       {`"points"`, `"pionts"`},
		"exercises/clamp/testdata/suite.json": {`"obs"`, `"ob"`},
	} {
		f := m[file]
		require.Contains(t, string(f.Data), typo[0], file)
		f.Data = []byte(strings.Replace(string(f.Data), typo[0], typo[1], 1))
	}
	r := run(t, m, Options{})
	files := map[string]Kind{}
	for _, p := range r.Problems {
		files[p.File] = p.Kind
	}
	assert.Equal(t, UnknownKey, files["exercises/clamp/exercise.json"], "%v", where(r.Problems))
	assert.Equal(t, UnknownKey, files["exercises/clamp/testdata/suite.json"], "%v", where(r.Problems))
}

// TestProblemsNameFilesThatExist: a problem found about a file that is not
// there names the nearest folder that is; problems about a missing file
// keep its name, since creating it is the fix.
func TestProblemsNameFilesThatExist(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"exercises/pick/exercise.json": {Data: []byte("{}")},
	}
	v := &validator{fsys: fsys}
	v.add("exercises/pick/testdata/suite.json", 3, RefFails, "Test", "case1")
	v.add("exercises/pick/hints.en.md", 0, HintsMissing, "Lang", "en")
	v.add("exercises/pick/exercise.json", 2, Points)
	v.existing()
	assert.Equal(t, []string{
		"exercises/pick/:0 ref_fails",
		"exercises/pick/hints.en.md:0 hints_missing",
		"exercises/pick/exercise.json:2 points",
	}, where(v.problems))

	// The planted course: every problem names a file or folder that exists.
	broken := os.DirFS("testdata/broken")
	for _, p := range run(t, broken, Options{}).Problems {
		if p.File == "" || mayBeMissing[p.Kind] {
			continue
		}
		_, err := fs.Stat(broken, strings.TrimSuffix(p.File, "/"))
		assert.NoError(t, err, "%s:%d %s", p.File, p.Line, p.Kind)
	}
}

// only returns the one problem of kind k in r.
func only(t *testing.T, r *Report, k Kind) Problem {
	t.Helper()
	var got []Problem
	for _, p := range r.Problems {
		if p.Kind == k {
			got = append(got, p)
		}
	}
	require.Len(t, got, 1, "%v", where(r.Problems))
	return got[0]
}

// argOf returns the value of the argument key of p, or nil.
func argOf(p Problem, key string) any {
	for i := 0; i+1 < len(p.Args); i += 2 {
		if p.Args[i] == key {
			return p.Args[i+1]
		}
	}
	return nil
}

// TestBuiltinCourseProse runs the checks of prose.go on the built-in
// course, which must have none of these problems.
func TestBuiltinCourseProse(t *testing.T) {
	t.Parallel()
	v := &validator{fsys: kurs.Content()}
	c := v.structure()
	require.NotNil(t, c)
	v.prose(c)
	assert.Empty(t, where(v.problems))
}

// TestProseProblems plants each mistake of a text the checks of prose.go
// find: references to an exercise, a hidden test, a step, a pitfall and a
// lesson that do not exist, a chapter, a source the lesson does not
// name, a number of random traces the suite does not run, and English
// quotation marks in German; and the same texts, right, pass.
func TestProseProblems(t *testing.T) {
	t.Parallel()
	m := mapCourse(t, "testdata/weak")
	m["exercises/clamp/testdata/suite.json"].Data = []byte(`{
  "observe": "Value",
  "tests": [
    {"name": "seed/below-the-ceiling", "title": {"de": "Unter dem Deckel", "en": "Below the ceiling"}, "new": [10], "steps": [
      {"call": "Add", "args": [1], "obs": "1"}
    ]},
    {"name": "edge/at-the-ceiling", "title": {"de": "Am Deckel", "en": "At the ceiling"}, "new": [1], "steps": [
      {"call": "Add", "args": [2], "obs": "1"}
    ]},
    {"name": "random", "title": {"de": "Zufallsspuren", "en": "Random traces"}, "random": 1000}
  ]
}`)
	good := map[string]string{
		"lessons/main/en.md": "# Ceiling\n\n## Concept\n\n### Step 1: Count\n\nThe exercise `clamp` counts up to a ceiling; `kurs check clamp` checks it.\n" +
			"The test `seed/below-the-ceiling`, and the tests `edge/at-…`, show it. As in step 1, see pitfall 1 and exercise 1.\n" +
			"The check runs 1,000 random traces. Part 2, pitfall 7, is another lesson's.\n\n## Pitfalls\n\n1. **Counting past it.** Don't.\n\n## Exercises\n\n### Exercise 1: Clamp\n\nSee the lesson \"Ceiling\".\n",
		"lessons/main/de.md": "# Deckel\n\n## Konzept\n\n### Schritt 1: Zählen\n\nDie Übung `clamp` zählt bis zu einem Deckel; `kurs check clamp` prüft sie.\n" +
			"Der Test `seed/below-the-ceiling` und die Tests `edge/at-…` zeigen es. Wie in Schritt 1, siehe Stolperfalle 1 und Übung 1.\n" +
			"Der Check spielt 1.000 Zufallsspuren. „Deckel“ heißt `\"ceiling\"`.\n\n## Stolperfallen\n\n1. **Darüber zählen.** Nicht.\n\n## Übungen\n\n### Übung 1: Deckel\n\nSiehe die Lektion „Deckel“.\n",
		"exercises/clamp/task.en.md": "Count up to the ceiling of step 1 of the lesson. The check runs 1,000 random traces; `edge/at-the-ceiling` is one test.\n",
		"exercises/clamp/task.de.md": "Zähle bis zum Deckel aus Schritt 1 der Lektion. Der Check spielt 1.000 Zufallsspuren.\n",
	}
	prose := func() []string {
		v := &validator{fsys: m}
		c := v.structure()
		require.NotNil(t, c)
		v.prose(c)
		return where(v.problems)
	}
	for f, text := range good {
		m[f] = &fstest.MapFile{Data: []byte(text)}
	}
	assert.Empty(t, prose(), "the right texts")

	m["lessons/main/en.md"].Data = []byte("# Ceiling\n\n## Concept\n\n### Step 1: Count\n\n" +
		"Run `kurs check clampp`.\n" + // 7: no such exercise
		"The test `edge/nowhere` shows it.\n" + // 8: no such test
		"As in step 2.\n" + // 9: no step 2
		"See pitfall 3.\n" + // 10: one pitfall
		"See the lesson \"Floor\".\n" + // 11: no such lesson
		"The chapter's code forgets it.\n" + // 12: a chapter
		"The English source tried it.\n" + // 13: a source the lesson does not name
		"The check runs over a thousand random traces.\n" + // 14: exactly 1,000
		"\n## Pitfalls\n\n1. **Counting past it.** Don't.\n\n## Source\n\nBackground (general knowledge): counting.\n")
	m["exercises/clamp/task.de.md"].Data = []byte("Zähle bis zum Deckel aus Schritt 4 der Lektion.\n" + // 1: no step 4
		"Der Check spielt 100 Zufallsspuren.\n" + // 2: 1.000
		"Das ist der “Deckel”.\n") // 3: English quotes
	assert.ElementsMatch(t, []string{
		"lessons/main/en.md:7 cross_ref",
		"lessons/main/en.md:8 cross_ref",
		"lessons/main/en.md:9 cross_ref",
		"lessons/main/en.md:10 cross_ref",
		"lessons/main/en.md:11 cross_ref",
		"lessons/main/en.md:12 chapter",
		"lessons/main/en.md:13 source_unnamed",
		"lessons/main/en.md:14 random_count",
		"exercises/clamp/task.de.md:1 cross_ref",
		"exercises/clamp/task.de.md:2 random_count",
		"exercises/clamp/task.de.md:3 quotes",
	}, prose())

	// German titles too: a hidden test's, with English quotation marks.
	m["exercises/clamp/testdata/suite.json"].Data = []byte(strings.Replace(string(m["exercises/clamp/testdata/suite.json"].Data),
		`"de": "Am Deckel"`, `"de": "Am “Deckel”"`, 1))
	assert.Contains(t, prose(), "exercises/clamp/testdata/suite.json:7 quotes")
}

// TestRefFailsInTheCourse changes the built-in circuit breaker's reference
// to open one failure late: validate names the reference's file and the
// line of Failure, the method whose step first differs, and reports it at
// that step of the worked example in suite.json.
func TestRefFailsInTheCourse(t *testing.T) {
	t.Parallel()
	m := fstest.MapFS{}
	src := kurs.Content()
	for _, dir := range []string{"exercises/circuitbreaker", "lessons/resilienz-2"} {
		require.NoError(t, fs.WalkDir(src, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(src, p)
			m[p] = &fstest.MapFile{Data: data}
			return err
		}))
	}
	sol := m["exercises/circuitbreaker/solution/circuitbreaker.go"]
	require.NotNil(t, sol)
	require.Contains(t, string(sol.Data), "b.failures >= b.threshold")
	sol.Data = []byte(strings.Replace(string(sol.Data), "b.failures >= b.threshold", "b.failures > b.threshold", 1))
	r := run(t, m, Options{})
	var fails []Problem
	for _, p := range r.Problems {
		if p.Kind == RefFails {
			fails = append(fails, p)
		}
	}
	require.NotEmpty(t, fails, "%v", where(r.Problems))
	line := 0
	for i, l := range strings.Split(string(sol.Data), "\n") {
		if strings.HasPrefix(l, "func (b *CircuitBreaker) Failure(") {
			line = i + 1
		}
	}
	for _, p := range fails {
		assert.Equal(t, "exercises/circuitbreaker/testdata/suite.json", p.File)
		if argOf(p, "Call") != "" {
			assert.Equal(t, "exercises/circuitbreaker/solution/circuitbreaker.go:"+strconv.Itoa(line), argOf(p, "Solution"), "%s:%d", p.File, p.Line)
		}
	}
	// The worked example: the sixth step, Failure(4), should open.
	suite := string(m["exercises/circuitbreaker/testdata/suite.json"].Data)
	first := fails[0]
	assert.Equal(t, "seed/threshold3-wait5", argOf(first, "Test"))
	assert.Equal(t, 6, argOf(first, "Step"))
	assert.Equal(t, "Failure(4)", argOf(first, "Call"))
	lines := strings.Split(suite, "\n")
	require.Less(t, first.Line-1, len(lines))
	assert.Equal(t, "{", strings.TrimSpace(lines[first.Line-1]), "the step's object")
	assert.Contains(t, strings.Join(lines[first.Line-1:first.Line+5], "\n"), `"obs": "open"`)
}

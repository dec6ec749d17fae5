package report

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
)

// TestClassByMisconception: the class report lists per exercise the named
// misconceptions with their counts and links, then the unnamed behaviours
// by their failing test's title and step, then the submissions without
// code, with the unchanged skeleton or that do not compile, apart from
// the real attempts; for a quiz, the wrong options chosen per case.
func TestClassByMisconception(t *testing.T) {
	ex := counterWithSignature(t)
	step := func(n int) *int { return &n }
	doc := func(x Exercise) *Document { return &Document{Exercises: []Exercise{x}, MaxScore: 1} }
	named := Exercise{ID: "counter", Status: "fail", MaxScore: 1,
		Misconception: &MisconceptionRef{ID: "add-sets-the-count", Title: "whatever the grading language said"},
		Tests:         []TestCase{{Name: "seed/worked-example", Status: "fail", Step: step(1)}}}
	unnamed := Exercise{ID: "counter", Status: "fail", MaxScore: 1,
		Tests: []TestCase{{Name: "seed/worked-example", Status: "fail", Step: step(2)}, {Name: "random", Status: "fail", Step: step(3)}}}
	b := &Batch{ExerciseIDs: []string{"counter"}, Submissions: []Entry{
		{ID: "ada", Document: doc(named)},
		{ID: "bob", Document: doc(named)},
		{ID: "cy", Document: doc(unnamed)},
		{ID: "dee", Document: doc(Exercise{ID: "counter", Status: "fail", Skeleton: true})},
		{ID: "eli", Document: doc(Exercise{ID: "counter", Status: "error", Problem: "no_files", Message: "no code"})},
		{ID: "fay", Document: doc(Exercise{ID: "counter", Status: "error", Problem: "compile", Message: "The code does not build:"})},
		{ID: "gus", Document: doc(Exercise{ID: "counter", Status: "pass", Score: 1, MaxScore: 1})},
	}}
	for _, c := range []struct {
		lang  string
		wants []string
	}{
		{"en", []string{
			"<h4>Misconceptions named in the results</h4>",
			"29% show the misconception “Add sets the count instead of adding to it”",
			`<a class="id" href="#s1">ada</a> <a class="id" href="#s2">bob</a>`,
			"<h4>Other mistakes, grouped by behaviour</h4>",
			"14% fail first at the test “The task&#39;s example with New(2) (seed/worked-example)”, at step 2 (one more test fails too)",
			"<h4>Not testable</h4>",
			"14% do not compile",
			"<h4>Not attempted yet</h4>",
			"14% hand in the unchanged skeleton",
			"14% hand in no code",
			// The bar splits the class as the groups do: the skeleton
			// and the missing code are not attempted, not failed. Its
			// shares fill it: the pixel that rounding down each would
			// leave goes to the largest remainder (3/7 of 400).
			`<rect class="fail" x="57" y="0" width="172" height="20"/>`,
			`<rect class="error" x="229" y="0" width="57" height="20"/>`,
			`<rect class="none" x="286" y="0" width="114" height="20"/>`,
			"14% passed, 43% failed, 14% not testable, 29% not attempted yet",
		}},
		{"de", []string{
			"29 % zeigen die Fehlvorstellung „Add setzt den Zähler, statt zu addieren“",
			"14 % geben das unveränderte Gerüst ab",
			"Andere Fehler, nach Verhalten gruppiert",
			"<h4>Nicht testbar</h4>",
			"<h4>Noch nicht bearbeitet</h4>",
			"14 % bestanden, 43 % nicht bestanden, 14 % nicht testbar, 29 % noch nicht bearbeitet",
		}},
	} {
		var out bytes.Buffer
		require.NoError(t, classReport(&out, i18n.New(c.lang), b, []*course.Exercise{ex}))
		for _, w := range c.wants {
			assert.Contains(t, out.String(), w, c.lang)
		}
		assert.NotContains(t, out.String(), "whatever the grading language said", "the title in the teacher's language")
	}
}

// TestClassSharesAddUp: the shares a pass-rate bar's label names add up
// to 100 %, the points that rounding each down leaves going to the largest
// remainders: 1, 2, 2 and 2 of 7 are 14, 29, 29 and 28 %, not 101 %. The
// pass rate above says the same 14 %.
func TestClassSharesAddUp(t *testing.T) {
	ex := counterWithSignature(t)
	doc := func(x Exercise) *Document { return &Document{Exercises: []Exercise{x}, MaxScore: 1} }
	fail := Exercise{ID: "counter", Status: "fail", MaxScore: 1}
	b := &Batch{ExerciseIDs: []string{"counter"}, Submissions: []Entry{
		{ID: "ada", Document: doc(Exercise{ID: "counter", Status: "pass", Score: 1, MaxScore: 1})},
		{ID: "bob", Document: doc(fail)},
		{ID: "cy", Document: doc(fail)},
		{ID: "dee", Document: doc(Exercise{ID: "counter", Status: "error", Problem: "compile", Message: "The code does not build:"})},
		{ID: "eli", Document: doc(Exercise{ID: "counter", Status: "error", Problem: "crash", Message: "crashed"})},
		{ID: "fay", Document: doc(Exercise{ID: "counter", Status: "fail", Skeleton: true})},
		{ID: "gus", Document: doc(Exercise{ID: "counter", Status: "error", Problem: "no_files", Message: "no code"})},
	}}
	for lang, want := range map[string][]string{
		"en": {">14% passed, 29% failed, 29% not testable, 28% not attempted yet<", "(14%)"},
		"de": {">14 % bestanden, 29 % nicht bestanden, 29 % nicht testbar, 28 % noch nicht bearbeitet<", "(14 %)"},
	} {
		var out bytes.Buffer
		require.NoError(t, classReport(&out, i18n.New(lang), b, []*course.Exercise{ex}))
		for _, w := range want {
			assert.Contains(t, out.String(), w, lang)
		}
	}
}

// TestClassAPIApart: code that builds but with another API than the
// exercise's is not said not to compile, in the groups or in the table's
// cells.
func TestClassAPIApart(t *testing.T) {
	doc := func(problem, msg string) *Document {
		return &Document{Exercises: []Exercise{{ID: "circuitbreaker", Status: "error", Problem: problem, MaxScore: 4, Message: msg}}, MaxScore: 4}
	}
	b := &Batch{ExerciseIDs: []string{"circuitbreaker"}, Submissions: []Entry{
		{ID: "ada", Document: doc("api", "The code builds, but its API differs from the exercise's:")},
		{ID: "bob", Document: doc("compile", "The code does not build:")},
	}}
	for lang, wants := range map[string][]string{
		"en": {"50% compile, but with an API other than the exercise&#39;s", "50% do not compile"},
		"de": {"50 % lassen sich kompilieren, aber ihre API ist nicht die der Übung", "50 % lassen sich nicht kompilieren"},
	} {
		var out bytes.Buffer
		require.NoError(t, classReport(&out, i18n.New(lang), b, nil))
		for _, w := range wants {
			assert.Contains(t, out.String(), w, lang)
		}
	}
	var table bytes.Buffer
	require.NoError(t, classTable(&table, i18n.New("en"), b.ExerciseIDs, b.Rows(), 80))
	assert.Regexp(t, `(?m)^ada +✗ 0/4 \(API differs\) +0/4$`, table.String())
	assert.Regexp(t, `(?m)^bob +✗ 0/4 \(does not build\) +0/4$`, table.String())
}

// TestClassQuizUnanswered: a quiz case left empty is no wrong option. The
// class report lists it apart from the options chosen, and a quiz with no
// case answered, skeleton or not, as no attempt yet.
func TestClassQuizUnanswered(t *testing.T) {
	c, err := course.Load(os.DirFS("../.."))
	require.NoError(t, err)
	ex, ok := c.Exercise("bulkheadquiz")
	require.True(t, ok)
	quiz := func(skeleton bool, given ...string) *Document {
		x := Exercise{ID: "bulkheadquiz", Status: "fail", MaxScore: 2, Skeleton: skeleton}
		for i, g := range given {
			tc := TestCase{Name: "case" + strconv.Itoa(i+1), Status: "fail", Given: g}
			if g == "right" {
				tc = TestCase{Name: tc.Name, Status: "pass"}
			}
			x.Tests = append(x.Tests, tc)
		}
		return &Document{Exercises: []Exercise{x}, MaxScore: 2}
	}
	b := &Batch{ExerciseIDs: []string{"bulkheadquiz"}, Submissions: []Entry{
		{ID: "ada", Document: quiz(true, "", "")},
		{ID: "bob", Document: quiz(false, "", "")},
		{ID: "cy", Document: quiz(false, "right", "")},
		{ID: "dee", Document: quiz(false, "B", "")},
	}}
	for _, c := range []struct {
		lang         string
		wants, never []string
	}{
		{"en", []string{
			"<h4>Wrong options chosen</h4>",
			"25% choose B in Case 1",
			"<h4>Cases left unanswered</h4>",
			"50% leave Case 2 unanswered</span>\n<div class=\"subs\"><a class=\"id\" href=\"#s3\">cy</a> <a class=\"id\" href=\"#s4\">dee</a>",
			"<h4>Not attempted yet</h4>",
			"25% hand in the unchanged skeleton",
			"25% have answered no case yet</span>\n<div class=\"subs\"><a class=\"id\" href=\"#s2\">bob</a>",
			"0% passed, 50% failed, 50% not attempted yet",
			// The table agrees.
			`<tr id="s1"><td class="id">ada</td><td class="fail">✗ 0/2 (skeleton)</td>`,
			`<tr id="s2"><td class="id">bob</td><td class="fail">✗ 0/2 (no answer)</td>`,
			`<tr id="s4"><td class="id">dee</td><td class="fail">✗ 0/2</td>`,
		}, []string{"choose –", "choose  in"}},
		{"de", []string{
			"25 % wählen B in Fall 1",
			"<h4>Unbeantwortete Fälle</h4>",
			"50 % lassen Fall 2 unbeantwortet",
			"25 % geben das unveränderte Gerüst ab",
			"25 % haben noch keinen Fall beantwortet",
			"0 % bestanden, 50 % nicht bestanden, 50 % noch nicht bearbeitet",
			`<td class="fail">✗ 0/2 (keine Antwort)</td>`,
		}, []string{"wählen – in", "wählen  in"}},
	} {
		var out bytes.Buffer
		require.NoError(t, classReport(&out, i18n.New(c.lang), b, []*course.Exercise{ex}))
		for _, w := range c.wants {
			assert.Contains(t, out.String(), w, c.lang)
		}
		for _, w := range c.never {
			assert.NotContains(t, out.String(), w, c.lang)
		}
	}
}

// TestClassQuizByCase: a quiz's wrong options go by case, as the quiz asks
// them, not by how common they are; an answer that is none of the options
// has a group of its own; and the cases one submission left empty make one
// group, so that the submission counts once.
func TestClassQuizByCase(t *testing.T) {
	c, err := course.Load(os.DirFS("../.."))
	require.NoError(t, err)
	ex, ok := c.Exercise("lbquiz")
	require.True(t, ok)
	quiz := func(given ...string) *Document {
		x := Exercise{ID: "lbquiz", Status: "fail", MaxScore: 4}
		for i, g := range given {
			x.Tests = append(x.Tests, TestCase{Name: "case" + strconv.Itoa(i+1), Status: "fail", Given: g})
		}
		return &Document{Exercises: []Exercise{x}, MaxScore: 4}
	}
	b := &Batch{ExerciseIDs: []string{"lbquiz"}, Submissions: []Entry{
		{ID: "ada", Document: quiz("", "", "C", "A")},
		// An option is one however it is cased; an answer that is none
		// is shown as the learner wrote it.
		{ID: "bob", Document: quiz("", "", "c", "B")},
		{ID: "cy", Document: quiz("A", "", "", "A")},
		{ID: "dee", Document: quiz("A", "B", "maybe d", "A")},
	}}
	for _, c := range []struct {
		lang  string
		wants []string
	}{
		{"en", []string{
			"<h4>Wrong options chosen</h4>",
			"50% choose A in Case 1",
			"25% choose B in Case 2",
			"50% choose C in Case 3",
			"75% choose A in Case 4",
			"25% choose B in Case 4",
			"<h4>Answers that are none of the options</h4>",
			"25% answer “maybe d” in Case 3",
			"<h4>Cases left unanswered</h4>",
			"50% leave Case 1 and Case 2 unanswered",
			"25% leave Case 2 and Case 3 unanswered",
		}},
		{"de", []string{
			"50 % wählen A in Fall 1",
			"25 % antworten in Fall 3 „maybe d“",
			"50 % lassen Fall 1 und Fall 2 unbeantwortet",
		}},
	} {
		var out bytes.Buffer
		require.NoError(t, classReport(&out, i18n.New(c.lang), b, []*course.Exercise{ex}))
		html := out.String()
		last := -1
		for _, w := range c.wants {
			i := strings.Index(html, w)
			if assert.GreaterOrEqual(t, i, 0, "%s: %q missing", c.lang, w) {
				assert.Greater(t, i, last, "%s: %q out of order", c.lang, w)
				last = i
			}
		}
		assert.Equal(t, 2, strings.Count(html, "unanswered</span>")+strings.Count(html, "unbeantwortet</span>"), "one group per set of empty cases")
	}
}

// TestBatchTextVerbose: with -v, the class's text lists per exercise
// every way its submissions fail, as the class report words them, each
// with its submissions, also the rare behaviours the report counts
// together; what a document carries is escaped, as a merged document may
// come from anywhere; without -v, the table alone.
func TestBatchTextVerbose(t *testing.T) {
	step := func(n int) *int { return &n }
	b := &Batch{ExerciseIDs: []string{"circuitbreaker"}}
	for i := range classGroups + 2 {
		// Each fails first at another step: a behaviour of its own.
		x := Exercise{ID: "circuitbreaker", Status: "fail", MaxScore: 4,
			Tests: []TestCase{{Name: "seed/threshold3-wait5", Status: "fail", Step: step(i + 1)}}}
		b.Submissions = append(b.Submissions, Entry{ID: "s" + strconv.Itoa(i), Document: &Document{Exercises: []Exercise{x}, MaxScore: 4}})
	}
	hostile := Exercise{ID: "circuitbreaker", Status: "error", Problem: "crash", MaxScore: 4, Message: "crashed \x1b[2J here"}
	b.Submissions = append(b.Submissions, Entry{ID: "evil\x1b]0;x\x07", Document: &Document{Exercises: []Exercise{hostile}, MaxScore: 4}})

	var out bytes.Buffer
	require.NoError(t, BatchText(&out, i18n.New("en"), b, BatchTextOptions{Verbose: true, Width: 80}))
	text := out.String()
	assert.Contains(t, text, "\ncircuitbreaker\n  0 of 8 submissions pass (0%).\n")
	for i := range classGroups + 2 {
		assert.Regexp(t, `(?m)^  13% fail first at the test “seed/threshold3-wait5”, at step `+strconv.Itoa(i+1)+`\n      s`+strconv.Itoa(i)+`$`, text)
	}
	assert.NotContains(t, text, "fail in other ways", "every behaviour is listed")
	assert.Contains(t, text, "cannot be tested: crashed \\x1b[2J here\n      evil\\x1b]0;x\\x07\n")
	assert.NotContains(t, text, "\x1b")
	assert.Less(t, strings.Index(text, "Submissions: 8;"), strings.Index(text, "circuitbreaker\n"), "after the table")
	assert.Less(t, strings.Index(text, "circuitbreaker\n"), strings.Index(text, "Seed 0:"), "before the seed")

	out.Reset()
	require.NoError(t, BatchText(&out, i18n.New("en"), b, BatchTextOptions{Width: 80}))
	assert.NotContains(t, out.String(), "fail first")
}

// TestGroupsNamePanicsHangsAndCrashes: a panic, the time limit and a
// crash are named in the groups, each apart from wrong answers at the
// same step, and the tests a crash left unrun are said to have not run.
func TestGroupsNamePanicsHangsAndCrashes(t *testing.T) {
	step := func(n int) *int { return &n }
	tests := func(first TestCase, rest ...TestCase) []TestCase { return append([]TestCase{first}, rest...) }
	const name = "seed/threshold3-wait5"
	cases := map[string][]TestCase{
		"wrong":   tests(TestCase{Name: name, Status: "fail", Step: step(2)}),
		"panics":  tests(TestCase{Name: name, Status: "fail", Step: step(2), Failure: "panic"}),
		"hangs":   tests(TestCase{Name: name, Status: "fail", Step: step(0), Failure: "timeout"}),
		"crashes": tests(TestCase{Name: name, Status: "fail", Failure: "crash"}, TestCase{Name: "random/8", Status: "fail", Failure: "not_run"}, TestCase{Name: "random/32", Status: "fail", Failure: "not_run"}),
	}
	b := &Batch{ExerciseIDs: []string{"circuitbreaker"}}
	for _, id := range []string{"crashes", "hangs", "panics", "wrong"} {
		x := Exercise{ID: "circuitbreaker", Status: "fail", MaxScore: 4, Tests: cases[id]}
		b.Submissions = append(b.Submissions, Entry{ID: id, Document: &Document{Exercises: []Exercise{x}, MaxScore: 4}})
	}
	want := map[string][]string{
		"en": {
			"  25% fail first at the test “seed/threshold3-wait5”, at step 2\n      wrong\n",
			"  25% panic first at the test “seed/threshold3-wait5”, at step 2\n      panics\n",
			"  25% run out of time first at the test “seed/threshold3-wait5”, already at\n    the constructor\n      hangs\n",
			"  25% crash during the test “seed/threshold3-wait5” (2 more tests did not run)\n      crashes\n",
		},
		"de": {
			"  25 % scheitern zuerst am Test „seed/threshold3-wait5“, bei Schritt 2\n      wrong\n",
			"  25 % lösen beim Test „seed/threshold3-wait5“ in Schritt 2 zuerst eine Panic\n    aus\n      panics\n",
			"  25 % überschreiten beim Test „seed/threshold3-wait5“ zuerst das Zeitlimit,\n    und zwar schon im Konstruktor\n      hangs\n",
			"  25 % stürzen beim Test „seed/threshold3-wait5“ ab (2 weitere Tests liefen\n    nicht mehr)\n      crashes\n",
		},
	}
	for lang, lines := range want {
		var out bytes.Buffer
		require.NoError(t, BatchText(&out, i18n.New(lang), b, BatchTextOptions{Verbose: true, Width: 80}))
		for _, l := range lines {
			assert.Contains(t, out.String(), l, lang)
		}
	}
}

// TestQuoteWithinAQuote: a misconception's title that quotes something
// itself takes the inner quotation marks inside the group's, in each
// language as its reader writes them.
func TestQuoteWithinAQuote(t *testing.T) {
	de, en := i18n.New("de"), i18n.New("en")
	assert.Equal(t, "Der halb offene Zustand heißt ‚half-open‘", nested(de, "Der halb offene Zustand heißt „half-open“"))
	assert.Equal(t, "The half-open state is spelled ‘half-open’", nested(en, `The half-open state is spelled "half-open"`))
	assert.Equal(t, "spelled ‘half-open’, not ‘half_open’", nested(en, "spelled “half-open”, not \"half_open\""))
	assert.Equal(t, "no quotes", nested(de, "no quotes"))

	b := &Batch{ExerciseIDs: []string{"circuitbreaker"}}
	for lang, title := range map[string]string{"de": "Der halb offene Zustand heißt „half-open“", "en": `The half-open state is spelled "half-open"`} {
		x := Exercise{ID: "circuitbreaker", Status: "fail", MaxScore: 4, Misconception: &MisconceptionRef{ID: "half-open-with-hyphen", Title: title},
			Tests: []TestCase{{Name: "seed/threshold3-wait5", Status: "fail", Step: new(int)}}}
		b.Submissions = []Entry{{ID: "ann", Document: &Document{Exercises: []Exercise{x}, MaxScore: 4}}}
		var out bytes.Buffer
		require.NoError(t, BatchText(&out, i18n.New(lang), b, BatchTextOptions{Verbose: true, Width: 100}))
		want := map[string]string{
			"de": "zeigen die Fehlvorstellung „Der halb offene Zustand heißt ‚half-open‘“\n",
			"en": "show the misconception “The half-open state is spelled ‘half-open’”\n",
		}[lang]
		assert.Contains(t, out.String(), want, lang)
	}
}

// TestEveryWayOfFailingIsWorded: each way a first failing test can fail,
// at each kind of step, has its words in both catalogs (the keys are
// chosen from a table, which the catalog test's scan does not see).
func TestEveryWayOfFailingIsWorded(t *testing.T) {
	step := func(n int) *int { return &n }
	for _, lang := range []string{"en", "de"} {
		p := i18n.New(lang)
		for _, f := range []string{"", "panic", "timeout", "crash"} {
			for _, s := range []*int{nil, step(0), step(3)} {
				x := &Exercise{Tests: []TestCase{{Name: "t", Status: "fail", Step: s, Failure: f}}}
				_, text := behaviour(p, nil, x)
				assert.NotContains(t, text, "[grade.", "%s: failure %q, step %v", lang, f, s)
			}
		}
	}
}

// TestRacyPoolsGroupTogether: submissions that fail only the stress tests
// fail them where the scheduler happened to interleave the goroutines, at
// one step or another; unnamed, they make one group, not one per step.
func TestRacyPoolsGroupTogether(t *testing.T) {
	step := func(n int) *int { return &n }
	cases := map[string][]TestCase{
		"a": {{Name: "concurrent/stress-size-1", Status: "fail", Step: step(2)}},
		"b": {{Name: "concurrent/stress-size-3", Status: "fail", Step: step(5)}, {Name: "concurrent/stress-size-2", Status: "fail", Step: step(2)}},
		"c": {{Name: "edge/release-frees-a-slot", Status: "fail", Step: step(4)}, {Name: "concurrent/stress-size-1", Status: "fail", Step: step(2)}},
	}
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	ex, ok := c.Exercise("bulkheadpool")
	require.True(t, ok)
	b := &Batch{ExerciseIDs: []string{"bulkheadpool"}}
	for _, id := range []string{"a", "b", "c"} {
		x := Exercise{ID: "bulkheadpool", Status: "fail", MaxScore: 4, Tests: cases[id]}
		b.Submissions = append(b.Submissions, Entry{ID: id, Document: &Document{Exercises: []Exercise{x}, MaxScore: 4}})
	}
	for lang, want := range map[string]string{
		"en": "  67% fail only under several goroutines at once\n      a, b\n",
		"de": "  67 % scheitern nur mit mehreren Goroutinen zugleich\n      a, b\n",
	} {
		var out bytes.Buffer
		require.NoError(t, BatchText(&out, i18n.New(lang), b, BatchTextOptions{Verbose: true, Width: 80, Exercises: []*course.Exercise{ex}}))
		assert.Contains(t, out.String(), want, lang)
	}
}

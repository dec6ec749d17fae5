package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// evil is what learner code can put into a panic value, its output or a
// crash: a window title (OSC … BEL), a screen clear (CSI 2J), NUL, a C1
// CSI, invalid UTF-8, DEL, a carriage return and a right-to-left override.
const evil = "\x1b]0;pwned\x07\x1b[2J\x00\u009b[31m\xff\xfe\x7f\r\u202e"

// huge is a value of 3 MiB, as a State() that returns a long string gives.
var huge = strings.Repeat("x", 3<<20)

// hostile returns results of a submission whose code is out to break the
// report: circuitbreaker's State() returns 3 MiB in every test, the first
// test panics with a value holding escape sequences and 3 MiB, and the
// code printed 64 KiB of escape sequences; tokenbucket's compile error
// names a file whose name holds ESC; the quiz answer is an escape
// sequence; gateway's program crashed with escape sequences in its last
// words.
func hostile(t *testing.T) []explain.Graded {
	t.Helper()
	c, err := course.Load(os.DirFS("../.."))
	ex := func(id string) *course.Exercise {
		e, ok := c.Exercise(id)
		require.True(t, ok, "exercise %s: %v", id, err)
		return e
	}
	cb, tb, quiz, gw := ex("circuitbreaker"), ex("tokenbucket"), ex("bulkheadquiz"), ex("gateway")

	cbRes := &checker.Result{Exercise: cb.ID, Status: checker.Fail, MaxScore: cb.Points, Seed: 1,
		Output: strings.Repeat(evil+"\n", (64<<10)/(len(evil)+1)), Truncated: true}
	for i, st := range cb.Suite.Tests {
		f := &harness.Failure{Kind: harness.Mismatch, New: []float64{3, 5}, Observe: "State()",
			Done: []harness.Done{{Call: "Failure(0)", Got: harness.Result{Obs: huge}}, {Call: "Failure(1)", Got: harness.Result{Obs: "[" + evil + huge + "]"}}},
			Step: 3, Call: "Failure(2)", Want: harness.Result{Obs: "closed"}, Got: harness.Result{Ret: evil + huge, Obs: huge}}
		if i == 0 {
			f = &harness.Failure{Kind: harness.Panicked, New: []float64{3, 5}, Step: 1, Call: "Failure(0)",
				Panic: evil + huge, Frame: "github.com/kurs-course/kurs/circuitbreaker/evil\x1b[2J.go:43"}
		}
		cbRes.Tests = append(cbRes.Tests, checker.Test{Name: st.Name, Status: checker.Fail, Failure: f})
	}

	tbRes := &checker.Result{Exercise: tb.ID, Status: checker.Error, MaxScore: tb.Points, Seed: 1,
		Problem: &checker.Problem{Kind: checker.ProblemCompile,
			Detail: "tokenbucket/evil\x1b]0;pwned\x07.go:15:38: undefined: " + evil + "\n" + huge}}

	quizRes := &checker.Result{Exercise: quiz.ID, Status: checker.Fail, MaxScore: quiz.Points, Seed: 1}
	for _, st := range quiz.Suite.Tests {
		quizRes.Tests = append(quizRes.Tests, checker.Test{Name: st.Name, Status: checker.Fail,
			Failure: &harness.Failure{Kind: harness.Quiz, Case: 1, Given: evil + huge}})
	}

	gwRes := &checker.Result{Exercise: gw.ID, Status: checker.Fail, MaxScore: gw.Points, Seed: 1, Crash: evil + "\n" + huge}
	for i, st := range gw.Suite.Tests {
		gwRes.Tests = append(gwRes.Tests, checker.Test{Name: st.Name, Status: checker.Fail, Missing: true, Crashed: i == 0})
	}
	return []explain.Graded{{Exercise: cb, Result: cbRes}, {Exercise: tb, Result: tbRes}, {Exercise: quiz, Result: quizRes}, {Exercise: gw, Result: gwRes}}
}

// noControls fails when s holds a control character other than those in
// allowed, or is not UTF-8.
func noControls(t *testing.T, what, s, allowed string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("%s: not UTF-8", what)
	}
	for i, r := range s {
		if (r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x202e) && !strings.ContainsRune(allowed, r) {
			t.Errorf("%s: raw %U at byte %d: %q", what, r, i, s[max(0, i-40):min(len(s), i+40)])
			return
		}
	}
}

// cutNote is the note on a cut value in each language.
var cutNote = map[string]string{"en": "more bytes not shown]", "de": "weitere Bytes nicht angezeigt]"}

// sizes collects the size of each format's document, for the log.
func logSize(t *testing.T, lang, format string, n int) {
	t.Helper()
	t.Logf("%s %-16s %9d bytes", lang, format, n)
}

func TestHostileText(t *testing.T) {
	for _, lang := range i18n.Languages {
		graded := hostile(t)
		var b bytes.Buffer
		require.NoError(t, explain.WriteText(&b, i18n.New(lang), graded, explain.TextOptions{Verbose: true}))
		logSize(t, lang, "text -v", b.Len())
		noControls(t, "text", b.String(), "\n\t")
		assert.Less(t, b.Len(), 1<<20, "text")
		assert.Contains(t, b.String(), cutNote[lang])
		assert.Contains(t, b.String(), `\x1b]0;pwned\x07\x1b[2J\x00\u009b[31m`, "the escape sequence is shown, not obeyed")
		assert.Contains(t, b.String(), `evil\x1b]0;pwned\x07.go`, "the file name is shown, not obeyed")
	}
}

func TestHostileJSON(t *testing.T) {
	for _, lang := range i18n.Languages {
		graded := hostile(t)
		var b bytes.Buffer
		require.NoError(t, report.JSON(&b, report.NewDocument(i18n.New(lang), graded)))
		logSize(t, lang, "json", b.Len())
		assert.Less(t, b.Len(), 1<<20, "a 3 MiB value gives a document under 1 MiB")
		noControls(t, "json", b.String(), "\n")
		var doc report.Document
		require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
		for _, e := range doc.Exercises {
			assert.LessOrEqual(t, len(e.Message), 70<<10, e.ID)
			noControls(t, e.ID, e.Message, "\n\t")
			for _, tc := range e.Tests {
				noControls(t, e.ID+" "+tc.Name, tc.Message, "\n\t")
				// A quiz answer is cut where every output cuts it: the
				// class report groups and quotes these.
				// (escapes may lengthen the part kept, and the note follows it).
				assert.Less(t, len(tc.Given), 3*textsafe.AnswerMax+len(cutNote[lang])+16, e.ID+" "+tc.Name)
			}
		}
		assert.Contains(t, doc.Exercises[0].Message, cutNote[lang])
		assert.Contains(t, doc.Exercises[2].Tests[0].Given, cutNote[lang], "the hostile quiz answer is cut")
	}
}

func TestHostileJUnit(t *testing.T) {
	for _, lang := range i18n.Languages {
		graded := hostile(t)
		var b bytes.Buffer
		require.NoError(t, report.JUnit(&b, i18n.New(lang), graded, fixtureRun))
		logSize(t, lang, "junit", b.Len())
		assert.Less(t, b.Len(), 2<<20, "well under GitLab's 30 MB")
		noControls(t, "junit", b.String(), "\n\t")
		var doc xmlSuites
		require.NoError(t, xml.Unmarshal(b.Bytes(), &doc), "the XML parses")
		require.NotEmpty(t, doc.Suites)
		for _, s := range doc.Suites {
			noControls(t, s.Name+" system-out", s.SystemOut, "\n\t")
			for _, c := range s.Cases {
				for _, pr := range []*xmlProblem{c.Failure, c.Error} {
					if pr == nil {
						continue
					}
					noControls(t, c.Name, pr.Message, "")
					noControls(t, c.Name, pr.Text, "\n\t")
					assert.LessOrEqual(t, len(pr.Text), 20<<10, "one testcase: %s", c.Name)
				}
			}
		}
		assert.Contains(t, doc.Suites[0].Cases[1].Failure.Text, cutNote[lang])
	}
}

func TestHostileGradescope(t *testing.T) {
	for _, lang := range i18n.Languages {
		graded := hostile(t)
		var b bytes.Buffer
		require.NoError(t, report.Gradescope(&b, i18n.New(lang), graded, fixtureRun))
		logSize(t, lang, "gradescope", b.Len())
		assert.Less(t, b.Len(), 1<<20)
		var doc struct {
			Tests []struct{ Name, Output string }
		}
		require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
		for _, tc := range doc.Tests {
			noControls(t, tc.Name, tc.Output, "\n\t")
			assert.LessOrEqual(t, len(tc.Output), 8<<10, "at most 8 KiB per test: %s", tc.Name)
		}
		assert.Contains(t, doc.Tests[0].Output, cutNote[lang])
	}
}

func TestHostileGitHub(t *testing.T) {
	for _, lang := range i18n.Languages {
		graded := hostile(t)
		p := i18n.New(lang)
		var b bytes.Buffer
		require.NoError(t, report.GitHub(&b, p, graded, "ws"))
		logSize(t, lang, "github", b.Len())
		assert.Less(t, b.Len(), 1<<20)
		noControls(t, "github", b.String(), "\n")
		as := annotations(t, b.String())
		require.Len(t, as, 5, "an error per exercise that fails, and the total")
		assert.Equal(t, `ws/circuitbreaker/evil\x1b[2J.go`, as[0].props["file"], "the panic's file, escaped")
		assert.Equal(t, `ws/tokenbucket/evil\x1b]0;pwned\x07.go`, as[1].props["file"], "the compiler's file, escaped")
		for _, a := range as {
			noControls(t, "annotation", a.message, "\n\t")
			assert.LessOrEqual(t, len(a.message), 20<<10)
		}
		assert.Contains(t, as[0].message, cutNote[lang])

		b.Reset()
		require.NoError(t, report.GitHubSummary(&b, p, graded, fixtureRun))
		logSize(t, lang, "github summary", b.Len())
		assert.Less(t, b.Len(), 1<<20, "GitHub takes a step summary of up to 1 MiB")
		noControls(t, "summary", b.String(), "\n\t")
		assert.Contains(t, b.String(), cutNote[lang])
	}
}

// TestGitHubTenErrors grades a course whose every exercise fails: GitHub
// shows ten error annotations per step and drops the rest, so kurs writes
// ten and names the others in a notice.
func TestGitHubTenErrors(t *testing.T) {
	c, err := course.Load(os.DirFS("../.."))
	require.NoError(t, err)
	var graded []explain.Graded
	for n := 0; len(graded) < 13; n++ {
		ex := c.Exercises[n%len(c.Exercises)]
		graded = append(graded, explain.Graded{Exercise: ex, Result: &checker.Result{Exercise: fmt.Sprintf("%s%d", ex.ID, n), Status: checker.Error,
			MaxScore: ex.Points, Problem: &checker.Problem{Kind: checker.ProblemNoFiles}}})
	}
	for _, lang := range i18n.Languages {
		var b bytes.Buffer
		require.NoError(t, report.GitHub(&b, i18n.New(lang), graded, ""))
		as := annotations(t, b.String())
		require.Len(t, as, 12, b.String())
		for _, a := range as[:10] {
			assert.Equal(t, "error", a.kind)
		}
		assert.Equal(t, "notice", as[10].kind)
		assert.Contains(t, as[10].message, graded[10].Result.Exercise+", "+graded[11].Result.Exercise+", "+graded[12].Result.Exercise)
		assert.Contains(t, as[10].message, map[string]string{"en": "3 more exercises do not pass", "de": "3 weitere Übungen sind nicht bestanden"}[lang])
		assert.Equal(t, "notice", as[11].kind)
	}
}

func TestBound(t *testing.T) {
	f := hostile(t)[0].Result.Tests[1].Failure
	for _, lang := range i18n.Languages {
		b := explain.Bound(i18n.New(lang), f)
		for _, s := range []string{b.Got.Ret, b.Got.Obs, b.Done[0].Got.Obs, b.Done[1].Got.Obs} {
			noControls(t, "bound", s, "")
			assert.Less(t, len(s), 1<<10+64)
			assert.Contains(t, s, cutNote[lang])
		}
		assert.Equal(t, "closed", b.Want.Obs, "a short value stays as it is")
		assert.Equal(t, f.Step, b.Step)
	}
	assert.Len(t, f.Got.Obs, 3<<20, "the original is left alone")
	assert.Nil(t, explain.Bound(i18n.New("en"), nil))
	pf := hostile(t)[0].Result.Tests[0].Failure
	b := explain.Bound(i18n.New("en"), pf)
	assert.Equal(t, `github.com/kurs-course/kurs/circuitbreaker/evil\x1b[2J.go:43`, b.Frame)
	assert.True(t, strings.HasPrefix(b.Panic, `\x1b]0;pwned\x07\x1b[2J\x00\u009b[31m`), b.Panic[:40])
	assert.Nil(t, b.Done)
}

// TestHostileExplain checks the explanations themselves: each value is
// cut on its own, so that a trace table shows every step.
func TestHostileExplain(t *testing.T) {
	graded := hostile(t)
	for _, lang := range i18n.Languages {
		p := i18n.New(lang)
		cb := graded[0]
		for _, i := range []int{0, 1} {
			msg := explain.Test(p, cb.Exercise, cb.Result, &cb.Result.Tests[i])
			noControls(t, "test", msg, "\n")
			for _, line := range strings.Split(msg, "\n") {
				// A row shows a returned and an observed value.
				assert.Less(t, len(line), 2*(1<<10)+200, "%s: %.80q", lang, line)
			}
			assert.Contains(t, msg, cutNote[lang])
		}
		rows := explain.Test(p, cb.Exercise, cb.Result, &cb.Result.Tests[1])
		assert.True(t, strings.Contains(rows, `"[\x1b]0;pwned\a\x1b[2J\x00\u009b[31m\xff\xfe\x7f\r\u202exxx`), "a value is shown as Go writes it")
		assert.Equal(t, 6, strings.Count(rows, cutNote[lang]), "two steps that ran, the failing one and the got line: 6 values cut")
		for _, g := range graded[1:] {
			msg := explain.Message(p, g.Exercise, g.Result)
			noControls(t, g.Result.Exercise, msg, "\n")
			assert.Less(t, len(msg), 9<<10, g.Result.Exercise)
			assert.Contains(t, msg, cutNote[lang], g.Result.Exercise)
		}
	}
}
